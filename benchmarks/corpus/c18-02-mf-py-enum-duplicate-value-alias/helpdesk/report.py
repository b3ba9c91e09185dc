import logging

from .status import Status

log = logging.getLogger(__name__)


def board_columns(tickets, order):
    """The board: one (column name, tickets) pair per status, in the configured order."""
    by_status = {s.name: [] for s in Status}
    for t in tickets:
        by_status[t.status.name].append(t)
    return [(name, by_status[name]) for name in order]


def render_board(columns, today, stale_after):
    lines = []
    for name, tickets in columns:
        stale = [t for t in tickets if t.status.is_active and t.age(today) > stale_after]
        lines.append(f"{name.replace('_', ' ').title():<10} {len(tickets):>3} tickets, {len(stale)} stale")
        for t in sorted(tickets, key=lambda t: t.updated)[:3]:
            lines.append(f"    #{t.ident} {t.subject[:40]:<40} {t.agent}")
    return "\n".join(lines)
