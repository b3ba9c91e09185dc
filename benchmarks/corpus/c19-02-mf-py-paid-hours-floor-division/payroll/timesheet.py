import logging
from dataclasses import dataclass
from datetime import date, datetime

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Shift:
    employee: str
    day: date
    start: datetime
    end: datetime
    break_minutes: int = 0

    @property
    def minutes(self):
        return int((self.end - self.start).total_seconds() // 60) - self.break_minutes


def parse_line(line):
    # "2026-11-02 ana 09:00-17:30 30"  (the last field, the unpaid break in minutes, is optional)
    parts = line.split()
    day = date.fromisoformat(parts[0])
    start_s, end_s = parts[2].split("-")
    start = datetime.combine(day, datetime.strptime(start_s, "%H:%M").time())
    end = datetime.combine(day, datetime.strptime(end_s, "%H:%M").time())
    brk = int(parts[3]) if len(parts) > 3 else 0
    return Shift(parts[1].lower(), day, start, end, brk)


def load_timesheet(text):
    shifts = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        shifts.append(parse_line(line))
    log.debug("%d shifts", len(shifts))
    return shifts
