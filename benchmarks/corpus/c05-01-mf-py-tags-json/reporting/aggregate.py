from collections import defaultdict


def empty_team():
    return {"count": 0, "hours": 0.0, "max_priority": 0, "tags": set()}


def summarize_teams(tickets):
    teams = defaultdict(empty_team)
    for ticket in tickets:
        team = teams[ticket["team"]]
        team["count"] += 1
        team["hours"] += ticket["hours"]
        team["max_priority"] = max(team["max_priority"], ticket["priority"])
        team["tags"].update(ticket["tags"])
    return dict(teams)
