def check_value(spec, value):
    if spec and value not in spec:
        return f"{value!r} is not one of {', '.join(spec)}"


def build_validators(fields):
    checks = {}
    for name, spec in fields.items():
        checks[name] = lambda value: check_value(spec, value)
    return checks


validators = build_validators({"email": (), "country": ("BE", "DE", "FR", "NL")})
row = {"email": "ana.silva@example.org", "country": "NL"}
lineno = 2
for name, check in validators.items():
    why = check(row[name])
    if why:
        raise ValueError(f"line {lineno}: {name}: {why}")
