import json

REQUIRED = ("name", "version", "url", "sha256")


def parse_lockfile(text):
    """The lockfile's artifacts, in order, each checked for the required fields."""
    data = json.loads(text)
    if data.get("lockfile_version") != 2:
        raise ValueError(f"unsupported lockfile version {data.get('lockfile_version')!r}")
    artifacts = []
    for entry in data["artifacts"]:
        missing = [k for k in REQUIRED if k not in entry]
        if missing:
            raise ValueError(f"{entry.get('name', '?')}: missing {', '.join(missing)}")
        artifacts.append(dict(entry, target=entry.get("target", f"third_party/{entry['name']}")))
    return artifacts
