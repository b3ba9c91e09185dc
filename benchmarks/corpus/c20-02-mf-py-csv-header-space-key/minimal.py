import csv
import io


def load_guests(text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text))
    return [{key: (value or "").strip() for key, value in row.items()} for row in reader]


def render(guest):
    recipient = guest["email"]
    return recipient


render(load_guests("name, email\nAna Lima, ana.lima@example.org\n")[0])  # header keys: "name", " email"
