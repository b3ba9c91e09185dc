"""alerting: delivery channels for monitoring alerts."""

from .channels import Channel, EmailChannel
from .formatting import format_alert
from .slack import SlackChannel

__all__ = ["Channel", "EmailChannel", "SlackChannel", "format_alert"]
