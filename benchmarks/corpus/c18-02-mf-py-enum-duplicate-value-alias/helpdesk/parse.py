import csv
import io
import logging
from dataclasses import dataclass
from datetime import date

from .settings import AGENTS
from .status import Status

log = logging.getLogger(__name__)


@dataclass
class Ticket:
    ident: str
    subject: str
    status: Status
    agent: str
    updated: date

    def age(self, today):
        return (today - self.updated).days


def parse_export(text):
    """Read the vendor's CSV export (id, subject, status code, agent, last update)."""
    tickets = []
    for row in csv.DictReader(io.StringIO(text)):
        agent = AGENTS.get(row["agent"], row["agent"])
        tickets.append(Ticket(row["id"], row["subject"].strip(), Status.from_code(row["status"]), agent,
                              date.fromisoformat(row["updated"])))
    log.info("parsed %d tickets", len(tickets))
    return tickets
