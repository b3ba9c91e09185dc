import datetime
import logging

from .days import COVERAGE, DAY_NAMES, day_index
from .errors import RotaError

log = logging.getLogger(__name__)


def available(team, role, day, taken):
    name = day.strftime("%a").lower()
    people = [p for p in team if role in p.skills and name not in p.off and p.name not in taken]
    return sorted(people, key=lambda p: (p.shifts, p.name))  # fewest shifts so far first


def build_rota(team, start, days):
    rota = []
    for offset in range(days):
        day = start + datetime.timedelta(days=offset)
        need = COVERAGE[day_index(day)]
        taken = []
        for role in ("l2", "l1"):  # the scarce skill first
            people = available(team, role, day, taken)[:need[role]]
            if len(people) < need[role]:
                raise RotaError(f"{day:%a %d %b}: {need[role]} {role} needed, {len(people)} free")
            for person in people:
                person.shifts += 1
                taken.append(person.name)
                rota.append((day, role, person.name))
        log.debug("%s: %s", DAY_NAMES[day.weekday()], ", ".join(taken))
    return rota
