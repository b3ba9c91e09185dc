"""Replay the queued outgoing webhook deliveries through the local receiver (the staging smoke test)."""
import argparse
import logging

from relay.config import RelayConfig
from relay.events import build_delivery, queued_events
from relay.receiver import Receiver

log = logging.getLogger("replay")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="replay only events of this type")
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(name)s: %(message)s")
    cfg = RelayConfig()
    receiver = Receiver(cfg)
    sent = 0
    for event in queued_events():
        if args.only and event["type"] != args.only:
            continue
        raw, headers = build_delivery(event, cfg)
        receiver.handle(raw, headers)
        sent += 1
    log.info("replayed %d deliveries: %s", sent, receiver.summary())


if __name__ == "__main__":
    main()
