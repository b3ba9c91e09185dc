import csv
import io

PRIORITIES = {"low": 1, "medium": 2, "high": 3}


def parse_ticket(row):
    return {
        "id": row["id"],
        "team": row["team"].strip(),
        "priority": PRIORITIES[row["priority"]],
        "tags": [tag for tag in row["tags"].split(";") if tag],
        "hours": float(row["hours"]),
    }


def load_tickets(text):
    return [parse_ticket(row) for row in csv.DictReader(io.StringIO(text))]
