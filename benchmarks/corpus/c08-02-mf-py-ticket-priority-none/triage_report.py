"""Print the morning triage list from the tracker's JSON export."""
import argparse
import logging

from helpdesk.queue import open_tickets, triage_order, workload
from helpdesk.records import load_export
from helpdesk.render import report

log = logging.getLogger("triage")

EXPORT = """{"issues": [
  {"key": "OPS-311", "title": "VPN drops every 20 minutes", "status": "open", "priority": "2",
   "opened": "2026-11-20", "assignee": "dana"},
  {"key": "OPS-315", "title": "Printer on 3rd floor offline", "status": "closed", "priority": "4",
   "opened": "2026-11-21", "assignee": "lee"},
  {"key": "OPS-318", "title": "Payroll export fails with timeout", "status": "open", "priority": "1",
   "opened": "2026-11-24", "assignee": null},
  {"key": "OPS-320", "title": "New laptop for intern", "status": "pending", "priority": "3",
   "opened": "2026-11-25", "assignee": "lee"},
  {"key": "OPS-322", "title": "Shared drive quota warning", "status": "open", "priority": "",
   "opened": "2026-11-26", "assignee": null}
]}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--include-pending", action="store_true", default=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    tickets = load_export(EXPORT)
    log.info("loaded %d tickets", len(tickets))
    todo = open_tickets(tickets)
    if not args.include_pending:
        todo = [t for t in todo if t.status == "open"]
    print(report(triage_order(todo), workload(todo)))


if __name__ == "__main__":
    main()
