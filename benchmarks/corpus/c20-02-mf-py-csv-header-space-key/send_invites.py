"""Build the offsite invitations from the sign-up export (dry run: print them instead of sending)."""

import argparse
from pathlib import Path

from invites import SAMPLE_EXPORT, build_invites, load_guests
from invites.contacts import teams


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", type=Path, help="the sign-up form's export (default: the bundled sample)")
    parser.add_argument("--event", default="spring offsite")
    parser.add_argument("--date", default="14 May")
    parser.add_argument("--place", default="the Harbour room")
    parser.add_argument("--send", action="store_true", help="really send (default: dry run)")
    args = parser.parse_args()

    text = args.csv.read_text(encoding="utf-8") if args.csv else SAMPLE_EXPORT
    guests = load_guests(text)
    print(f"{len(guests)} guests from {len(teams(guests))} teams")
    event = {"event": args.event, "date": args.date, "place": args.place}
    outbox = build_invites(guests, event)
    print(outbox.summary())
    if not args.send:
        print(outbox.messages[0].body)


if __name__ == "__main__":
    main()
