def standing_key(row):
    return row["points"]


def rank_teams(table):
    rows = list(table.values())
    return rows.sort(key=standing_key, reverse=True)


def promotion_places(ranked, n):
    return ranked[:n]


promotion_places(rank_teams({"Red Lions": {"points": 13}, "Northgate": {"points": 1}}), 2)
