"""Offline-capable client for the billing API: settings, HTTP client, replay transport, invoice sync."""

from .client import ApiClient
from .settings import load_settings
from .sync import sync_invoices
from .transport import ReplayTransport

__all__ = ["ApiClient", "load_settings", "sync_invoices", "ReplayTransport"]
