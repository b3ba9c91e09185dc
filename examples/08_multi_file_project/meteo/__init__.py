"""meteo: raw station readings -> quality-controlled daily summaries."""
from .quality import clean
from .stations import STATIONS, Station
from .stats import summarize

__all__ = ["STATIONS", "Station", "clean", "summarize"]
