"""Fan the firing alerts out to the configured channels and print a delivery summary."""

import argparse
import logging
from collections import Counter

from alerting import EmailChannel, SlackChannel, format_alert

ALERTS = [
    {"name": "DiskFull", "severity": "critical", "summary": "/var at 97%", "labels": {"host": "db1"}},
    {"name": "HighLatency", "severity": "warning", "summary": "p99 1.8s", "labels": {"svc": "api"}},
    {"name": "CertExpiry", "severity": "info", "summary": "expires in 20 days"},
]

ROUTES = {"critical": ["oncall-email", "ops-slack"], "warning": ["ops-slack"], "info": ["ops-email"]}


def build_channels(args):
    return {
        "oncall-email": EmailChannel("oncall-email", "oncall@example.com"),
        "ops-email": EmailChannel("ops-email", "ops@example.com", retries=1),
        "ops-slack": SlackChannel("ops-slack", args.slack_webhook, retries=args.retries),
    }


def dispatch(alerts, channels, min_severity):
    order = ["info", "warning", "critical"]
    stats = Counter()
    for alert in alerts:
        if order.index(alert["severity"]) < order.index(min_severity):
            stats["skipped"] += 1
            continue
        text = format_alert(alert)
        for route in ROUTES[alert["severity"]]:
            ok = channels[route].deliver(text)
            stats["sent" if ok else "failed"] += 1
    return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slack-webhook", default="https://hooks.example.com/T000/B000")
    parser.add_argument("--retries", type=int, default=2)
    parser.add_argument("--min-severity", default="info", choices=["info", "warning", "critical"])
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    channels = build_channels(args)
    stats = dispatch(ALERTS, channels, args.min_severity)
    print("delivery:", dict(stats))
    for name, channel in channels.items():
        print(f"  {name}: {len(channel.outbox)} queued")


if __name__ == "__main__":
    main()
