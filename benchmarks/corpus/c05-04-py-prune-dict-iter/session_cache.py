"""A tiny in-memory session cache with expiry, exercised by a simulated request log."""
import time
from dataclasses import dataclass, field


@dataclass
class Entry:
    user: str
    created: float
    ttl: float
    hits: int = 0
    data: dict = field(default_factory=dict)

    def expired(self, now):
        return now - self.created > self.ttl


class SessionCache:
    def __init__(self, default_ttl=30.0, max_entries=100):
        self.default_ttl = default_ttl
        self.max_entries = max_entries
        self.sessions = {}
        self.evicted = 0

    def put(self, sid, user, now, ttl=None):
        self.sessions[sid] = Entry(user, now, ttl if ttl is not None else self.default_ttl)

    def get(self, sid, now):
        entry = self.sessions.get(sid)
        if entry is None or entry.expired(now):
            return None
        entry.hits += 1
        return entry

    def prune(self, now):
        for sid, entry in self.sessions.items():
            if entry.expired(now):
                del self.sessions[sid]
                self.evicted += 1
        return self.evicted


REQUESTS = [
    (0.0, "put", "s1", "alice"),
    (1.0, "put", "s2", "bob"),
    (2.0, "get", "s1", None),
    (5.0, "put", "s3", "carol"),
    (20.0, "get", "s2", None),
    (45.0, "prune", None, None),
    (46.0, "get", "s3", None),
]


def replay(cache, requests):
    started = time.monotonic()
    for now, op, sid, user in requests:
        if op == "put":
            cache.put(sid, user, now, ttl=40.0 if user == "carol" else None)
        elif op == "get":
            print(f"{now:5.1f} get {sid}: {cache.get(sid, now)}")
        elif op == "prune":
            print(f"{now:5.1f} pruned, {cache.prune(now)} evicted so far")
    return time.monotonic() - started


if __name__ == "__main__":
    replay(SessionCache(), REQUESTS)
