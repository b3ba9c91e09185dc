"""Plan the download and unpacking of a project's vendored third-party artifacts."""

from .lockfile import parse_lockfile
from .planner import plan_steps

__all__ = ["parse_lockfile", "plan_steps"]
