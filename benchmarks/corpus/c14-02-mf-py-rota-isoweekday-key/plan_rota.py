"""Plan the support desk's on-call rota for the next weeks and print it (text or CSV)."""
import argparse
import datetime
import logging
import sys

from rota import TEAM_SHEET, RotaError, build_rota, load_team

log = logging.getLogger("plan_rota")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", type=datetime.date.fromisoformat, default=datetime.date(2026, 3, 2))
    parser.add_argument("--weeks", type=int, default=2)
    parser.add_argument("--csv", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    try:
        team = load_team(TEAM_SHEET)
        rota = build_rota(team, args.start, 7 * args.weeks)
    except RotaError as exc:
        log.error("cannot plan the rota: %s", exc)
        sys.exit(2)
    for day, role, name in rota:
        print(f"{day},{role},{name}" if args.csv else f"{day:%a %d %b}  {role}  {name}")
    log.info("shifts: %s", ", ".join(f"{p.name} {p.shifts}" for p in team))


if __name__ == "__main__":
    main()
