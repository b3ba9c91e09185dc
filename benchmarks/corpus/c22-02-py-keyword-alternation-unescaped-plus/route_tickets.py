"""Route incoming support tickets to teams by keyword (runs every few minutes from cron)."""

import argparse
import logging
import re
from collections import Counter

log = logging.getLogger("route_tickets")

ROUTING = {
    "billing": ["invoice", "refund", "charge", "vat"],
    "platform": ["timeout", "502", "latency", "k8s"],
    "sdk": ["python", "java", "c++", "node.js"],
    "telephony": ["sms", "voip", "+44", "caller id"],
}
DEFAULT_TEAM = "triage"

TICKETS = [
    (101, "Refund for a double charge on the March invoice"),
    (102, "Build fails with the C++ SDK on Windows"),
    (103, "Gateway returns 502 after 30 s"),
    (104, "How do I rotate my API key?"),
    (105, "node.js client leaks sockets"),
    (106, "SMS to +44 numbers never arrive"),
]


def keyword_alternation(keywords):
    """One alternation for a team, longest keyword first so 'node.js' wins over 'node'."""
    ordered = sorted(dict.fromkeys(k.strip().lower() for k in keywords), key=len, reverse=True)
    return "|".join(ordered)


def compile_rules(routing):
    rules = {}
    for team, keywords in routing.items():
        rules[team] = re.compile(rf"(?<!\w)(?:{keyword_alternation(keywords)})(?!\w)", re.IGNORECASE)
        log.debug("team %s: %s", team, rules[team].pattern)
    return rules


def route(text, rules):
    for team, pattern in rules.items():
        if pattern.search(text):
            return team
    return DEFAULT_TEAM


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--only", help="route only this ticket id", type=int)
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(name)s: %(message)s")

    rules = compile_rules(ROUTING)
    counts = Counter()
    for ticket_id, subject in TICKETS:
        if args.only is not None and ticket_id != args.only:
            continue
        team = route(subject, rules)
        counts[team] += 1
        log.info("#%d -> %s (%s)", ticket_id, team, subject)
    log.info("routed %d tickets: %s", sum(counts.values()), dict(counts))


if __name__ == "__main__":
    main()
