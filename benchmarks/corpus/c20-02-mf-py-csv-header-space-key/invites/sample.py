# What the sign-up form exports (Settings > Export > CSV). Used when no --csv is given.
SAMPLE_EXPORT = """\
name, email, team, diet
Ana Lima, ana.lima@example.org, Platform, vegetarian
Ben Okafor, ben.okafor@example.org, Data,
Cara Jensen, cara.jensen@example.org, Platform, vegan
Dev Patel, dev.patel@example.org, Mobile,
"""
