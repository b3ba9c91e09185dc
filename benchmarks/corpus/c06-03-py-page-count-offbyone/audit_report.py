"""Print the access-audit log as a paged report: a header per page with its time range."""
import argparse
import random
from datetime import datetime, timedelta

USERS = ["alice", "bob", "carol", "dave", "erin"]
ACTIONS = ["login", "logout", "read", "write", "delete"]


def load_events(n, seed):
    rng = random.Random(seed)
    start = datetime(2026, 11, 1, 8, 0, 0)
    events = []
    for i in range(n):
        start += timedelta(seconds=rng.randint(5, 900))
        events.append({"ts": start, "user": rng.choice(USERS), "action": rng.choice(ACTIONS), "seq": i})
    return events


def paginate(events, page_size):
    n_pages = len(events) // page_size + 1
    return [events[i * page_size:(i + 1) * page_size] for i in range(n_pages)]


def page_header(number, page):
    first, last = page[0]["ts"], page[-1]["ts"]
    return f"--- page {number}: {first:%d %b %H:%M} .. {last:%H:%M} ({len(page)} events) ---"


def render(events, page_size):
    out = []
    for number, page in enumerate(paginate(events, page_size), start=1):
        out.append(page_header(number, page))
        for ev in page:
            out.append(f"{ev['seq']:>5}  {ev['ts']:%H:%M:%S}  {ev['user']:<6} {ev['action']}")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=120)
    parser.add_argument("--page-size", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    events = load_events(args.events, args.seed)
    deletes = sum(ev["action"] == "delete" for ev in events)
    print(render(events, args.page_size))
    print(f"{len(events)} events, {deletes} deletes")


if __name__ == "__main__":
    main()
