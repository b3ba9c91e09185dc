import json

team = {"tags": set()}
ticket = {"tags": ["gpu"]}
team["tags"].update(ticket["tags"])
json.dumps({"teams": {"ml": team}})
