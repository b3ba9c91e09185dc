import shlex

from .naming import archive_kind, filename_of
from .unpackers import UNPACKERS


def plan_steps(artifacts, cache_dir):
    """The shell lines that fetch, verify and unpack every artifact (nothing is run here)."""
    steps = []
    for art in artifacts:
        name = filename_of(art["url"])
        path = f"{cache_dir}/{name}"
        steps.append(shlex.join(["curl", "-fsSL", "-o", path, art["url"]]))
        steps.append(f"echo '{art['sha256']}  {path}' | sha256sum --check --quiet -")
        unpack = UNPACKERS[archive_kind(name)]
        steps.append(shlex.join(["mkdir", "-p", art["target"]]))
        steps.append(shlex.join(unpack(path, art["target"])))
    return steps
