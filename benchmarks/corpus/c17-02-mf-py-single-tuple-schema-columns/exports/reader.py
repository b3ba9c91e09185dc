import csv
import io
import logging

log = logging.getLogger(__name__)


def read_export(name, text):
    """The header and the rows (dicts) of one CSV drop; blank lines and '#' comments skipped."""
    lines = [ln for ln in text.strip().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    reader = csv.DictReader(io.StringIO("\n".join(lines)))
    rows = list(reader)
    header = [h.strip() for h in (reader.fieldnames or [])]
    log.info("%s: %d rows, columns %s", name, len(rows), ", ".join(header))
    return header, rows
