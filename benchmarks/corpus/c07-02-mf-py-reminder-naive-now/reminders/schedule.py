"""Which tasks need a reminder, and the digest text per owner."""
from collections import defaultdict

from .clock import lookahead


def due_soon(tasks, now, hours):
    horizon = lookahead(now, hours)
    return sorted((t for t in tasks if not t.done and t.due <= horizon), key=lambda t: t.due)


def render_digest(tasks, now):
    by_owner = defaultdict(list)
    for task in tasks:
        by_owner[task.owner].append(task)
    mails = {}
    for owner, mine in sorted(by_owner.items()):
        lines = [f"- #{t.id} {t.title}: due {t.due:%a %d %b %H:%M} UTC "
                 f"(in {(t.due - now).total_seconds() / 3600:.0f} h)" for t in mine]
        mails[owner] = f"Hi {owner}, {len(mine)} task(s) are due soon:\n" + "\n".join(lines)
    return mails
