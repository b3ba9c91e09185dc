"""Five-a-side league: standings from the season's results, promotion and relegation places.

    python league_table.py [--promote 2] [--relegate 2] [--points-for-win 3]
"""

import argparse
import logging
from dataclasses import dataclass

log = logging.getLogger("league")

RESULTS = """
# home, away, score   (matchday 1-6)
Red Lions      - Canal Street   4:2
Old Boys       - Riverside      1:1
Northgate      - Blue Anchors   0:3
Canal Street   - Old Boys       2:2
Riverside      - Northgate      5:1
Blue Anchors   - Red Lions      2:2
Red Lions      - Riverside      3:0
Old Boys       - Northgate      4:4
Canal Street   - Blue Anchors   1:0
Northgate      - Red Lions      1:6
Riverside      - Canal Street   2:3
Blue Anchors   - Old Boys       3:1
Canal Street   - Northgate      2:0
Old Boys       - Red Lions      0:2
Riverside      - Blue Anchors   2:2
"""


@dataclass
class Row:
    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0

    @property
    def goal_diff(self):
        return self.goals_for - self.goals_against


def parse_results(text):
    for line in text.strip().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        teams, score = line.rsplit(maxsplit=1)
        home, away = (t.strip() for t in teams.split(" - "))
        hg, ag = (int(g) for g in score.split(":"))
        yield home, away, hg, ag


def build_table(results, points_for_win):
    table = {}
    for home, away, hg, ag in results:
        for team, gf, ga in ((home, hg, ag), (away, ag, hg)):
            row = table.setdefault(team, Row(team))
            row.played += 1
            row.goals_for += gf
            row.goals_against += ga
            if gf > ga:
                row.won += 1
                row.points += points_for_win
            elif gf == ga:
                row.drawn += 1
                row.points += 1
            else:
                row.lost += 1
    return table


def standing_key(row):
    return (row.points, row.goal_diff, row.goals_for, row.team)


def rank_teams(table):
    rows = list(table.values())
    return rows.sort(key=standing_key, reverse=True)


def promotion_places(ranked, n):
    return ranked[:n]


def relegation_zone(ranked, n):
    return ranked[-n:]


def print_table(rows):
    print(f"{'#':>2} {'TEAM':14s} {'P':>2} {'W':>2} {'D':>2} {'L':>2} {'GD':>4} {'PTS':>4}")
    for pos, row in enumerate(rows, start=1):
        print(f"{pos:2d} {row.team:14s} {row.played:2d} {row.won:2d} {row.drawn:2d} {row.lost:2d} "
              f"{row.goal_diff:+4d} {row.points:4d}")


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--promote", type=int, default=2)
    p.add_argument("--relegate", type=int, default=2)
    p.add_argument("--points-for-win", type=int, default=3)
    args = p.parse_args()
    table = build_table(parse_results(RESULTS), args.points_for_win)
    log.info("%d teams, %d matches", len(table), sum(r.played for r in table.values()) // 2)
    ranked = rank_teams(table)
    up = promotion_places(ranked, args.promote)
    down = relegation_zone(ranked, args.relegate)
    print_table(ranked)
    print("promoted:", ", ".join(r.team for r in up))
    print("relegated:", ", ".join(r.team for r in down))


if __name__ == "__main__":
    main()
