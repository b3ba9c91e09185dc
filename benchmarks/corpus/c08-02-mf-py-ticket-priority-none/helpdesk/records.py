import json
from dataclasses import dataclass

STATUSES = ("open", "pending", "closed")


@dataclass
class Ticket:
    key: str
    title: str
    status: str
    priority: int | None  # 1 (urgent) .. 4 (low)
    opened: str  # ISO date
    assignee: str | None = None


def parse_ticket(raw):
    if raw["status"] not in STATUSES:
        raise ValueError(f"{raw['key']}: unknown status {raw['status']!r}")
    return Ticket(
        key=raw["key"],
        title=raw["title"].strip(),
        status=raw["status"],
        priority=int(raw["priority"]) if raw["priority"] else None,
        opened=raw["opened"],
        assignee=raw.get("assignee") or None,
    )


def load_export(text):
    return [parse_ticket(raw) for raw in json.loads(text)["issues"]]
