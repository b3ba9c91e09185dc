from types import SimpleNamespace


def parse_ticket(raw):
    return SimpleNamespace(
        priority=int(raw["priority"]) if raw["priority"] else None,
        opened=raw["opened"],
    )


def triage_order(tickets):
    return sorted(tickets, key=lambda t: (t.priority, t.opened))


raws = [{"priority": "2", "opened": "2026-11-20"}, {"priority": "", "opened": "2026-11-26"}]
triage_order([parse_ticket(r) for r in raws])
