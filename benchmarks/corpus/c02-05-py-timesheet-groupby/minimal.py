from collections import namedtuple
from datetime import datetime
from itertools import groupby
from operator import attrgetter

Event = namedtuple("Event", "time employee direction")
events = [Event(datetime(2024, 4, 8, 8), "alice", "in"), Event(datetime(2024, 4, 8, 9), "bob", "in"),
          Event(datetime(2024, 4, 8, 12), "alice", "out")]
events = sorted(events, key=attrgetter("time"))
for employee, group in groupby(events, key=attrgetter("employee")):
    event = next(group)
    if event.direction == "out":
        raise ValueError(f"{employee}: clock-out at {event.time:%H:%M} without a clock-in")
