"""Nightly job: mail every owner a digest of their tasks due in the next day."""
import argparse
import logging

from reminders import due_soon, load_tasks, reference_time, render_digest

log = logging.getLogger("reminders")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--as-of", default="2026-11-27 09:00", help="reference time, UTC")
    parser.add_argument("--hours", type=int, default=24)
    parser.add_argument("--send", action="store_true", help="send the mails (default: print them)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    now = reference_time(args.as_of)
    tasks = load_tasks()
    log.info("%d open task(s) loaded", sum(not t.done for t in tasks))
    soon = due_soon(tasks, now, args.hours)
    mails = render_digest(soon, now)
    for owner, body in mails.items():
        if not args.send:
            print(f"--- to {owner}@example.org\n{body}\n")
        else:
            log.info("would hand %d characters to the mailer for %s", len(body), owner)
    log.info("%d reminder(s) for %d owner(s)", len(soon), len(mails))


if __name__ == "__main__":
    main()
