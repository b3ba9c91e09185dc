"""Turning export rows into directory entries."""
import logging

log = logging.getLogger(__name__)


def to_entry(row, columns, shell):
    """One directory entry: every export column renamed to its directory attribute."""
    entry = {"loginShell": shell}
    for header, value in row.items():
        attribute = columns[header]
        entry[attribute] = value.strip()
    return entry


def to_entries(rows, columns, shell):
    entries = [to_entry(row, columns, shell) for row in rows]
    log.info("%d entries built", len(entries))
    return entries


def batched(entries, size):
    for start in range(0, len(entries), size):
        yield entries[start:start + size]
