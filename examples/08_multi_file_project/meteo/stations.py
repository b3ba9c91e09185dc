"""The station network."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Station:
    code: str
    name: str
    elevation_m: int
    feed: str  # "legacy": lower-case QC flags; "v2": the new data logger, upper-case flags


STATIONS = [
    Station("lkn", "Lakeside North", 212, "legacy"),
    Station("hrb", "Harbour Pier", 4, "legacy"),
    Station("rdg", "Ridge Top", 1480, "v2"),
    Station("vly", "Valley Farm", 330, "legacy"),
]
