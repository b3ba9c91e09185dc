"""Tags like v1.4.0 and v1.4.0rc2 as comparable versions."""
import re
from dataclasses import dataclass
from typing import Optional

TAG = re.compile(r"^v(\d+)\.(\d+)\.(\d+)(?:(a|b|rc)(\d+))?$")


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
    patch: int
    pre: Optional[tuple] = None  # ("rc", 2) for a pre-release, None for a final release

    @property
    def is_prerelease(self) -> bool:
        return self.pre is not None

    def __str__(self):
        core = f"{self.major}.{self.minor}.{self.patch}"
        return core + (f"{self.pre[0]}{self.pre[1]}" if self.pre else "")


def parse_tag(tag: str) -> Optional[Version]:
    m = TAG.match(tag)
    if m is None:
        return None
    major, minor, patch, kind, num = m.groups()
    pre = (kind, int(num)) if kind else None
    return Version(int(major), int(minor), int(patch), pre)
