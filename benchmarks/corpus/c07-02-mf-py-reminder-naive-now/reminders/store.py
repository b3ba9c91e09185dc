"""The open tasks, as the tracker's API returns them."""
from dataclasses import dataclass

from .clock import parse_timestamp

API_RESPONSE = [
    {"id": 311, "title": "Renew TLS certificate", "owner": "dana", "due": "2026-11-27T18:00:00Z", "done": False},
    {"id": 312, "title": "Quarterly access review", "owner": "li", "due": "2026-12-03T12:00:00Z", "done": False},
    {"id": 315, "title": "Rotate backup keys", "owner": "dana", "due": "2026-11-28T07:30:00Z", "done": False},
    {"id": 318, "title": "Patch build agents", "owner": "omar", "due": "2026-11-26T16:00:00Z", "done": True},
    {"id": 320, "title": "Update on-call rota", "owner": "li", "due": "2026-11-27T23:59:00Z", "done": False},
]


@dataclass
class Task:
    id: int
    title: str
    owner: str
    due: object
    done: bool


def load_tasks(rows=API_RESPONSE):
    return [Task(r["id"], r["title"], r["owner"], parse_timestamp(r["due"]), r["done"]) for r in rows]
