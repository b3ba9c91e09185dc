from string import Template

BODY = Template("""Hi $first,

you are invited to the $event on $date. Your team ($team) meets at $place.
$diet_line
See you there!
""")


def diet_line(diet: str) -> str:
    return f"We noted your diet: {diet}." if diet else "Tell us if you have any dietary needs."


def render(guest: dict[str, str], event: dict[str, str]) -> tuple[str, str]:
    """(recipient, body) for one guest."""
    first = guest["name"].split()[0]
    recipient = guest["email"]
    body = BODY.substitute(first=first, team=guest.get("team") or "no team", diet_line=diet_line(guest.get("diet", "")),
                           **event)
    return recipient, body
