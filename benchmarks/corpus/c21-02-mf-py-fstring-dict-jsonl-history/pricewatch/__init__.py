"""Price watch: snapshot the shops' prices for a watchlist, keep a JSON-lines history, report drops."""

from pricewatch.history import load_history
from pricewatch.report import build_report, price_drops
from pricewatch.shops import SAMPLE_LISTINGS, scrape
from pricewatch.store import SnapshotStore

__all__ = ["SAMPLE_LISTINGS", "SnapshotStore", "build_report", "load_history", "price_drops", "scrape"]
