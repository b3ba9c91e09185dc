from datetime import datetime, timezone
from types import SimpleNamespace

UTC = timezone.utc
AS_OF_FORMAT = "%Y-%m-%d %H:%M"


def reference_time(as_of):
    return datetime.strptime(as_of, AS_OF_FORMAT)


def due_soon(tasks, horizon):
    return sorted((t for t in tasks if not t.done and t.due <= horizon), key=lambda t: t.due)


task = SimpleNamespace(done=False, due=datetime.fromisoformat("2026-11-27T18:00:00+00:00"))
due_soon([task], reference_time("2026-11-27 09:00"))
