from collections import Counter


def open_tickets(tickets):
    return [t for t in tickets if t.status != "closed"]


def triage_order(tickets):
    """Most urgent first; among equal priorities, the oldest first."""
    return sorted(tickets, key=lambda t: (t.priority, t.opened))


def workload(tickets):
    return Counter(t.assignee or "(unassigned)" for t in tickets)
