from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
    patch: int
    pre: Optional[tuple] = None


sorted([Version(1, 3, 0, ("rc", 1)), Version(1, 3, 0)], reverse=True)
