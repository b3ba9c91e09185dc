"""Validate the trade-fair contact export before it is loaded into the CRM."""
import argparse
import io
import logging
import sys

from crmimport.rows import read_rows, validate_rows
from crmimport.schema import CONTACT_FIELDS
from crmimport.validators import build_validators

log = logging.getLogger("import_contacts")

EXPORT = """\
email;name;age;country
ana.silva@example.org;Ana Silva;34;NL
bert@example.com;Bert Maas;;DE
c.dubois@example.fr;Claire Dubois;51;FR
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delimiter", default=";")
    parser.add_argument("--dry-run", action="store_true", default=True)
    parser.add_argument("--max-errors", type=int, default=0, help="stop after this many bad rows (0: the first)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    validators = build_validators(CONTACT_FIELDS)
    rows = read_rows(io.StringIO(EXPORT), args.delimiter)
    good = validate_rows(rows, validators, args.max_errors)
    log.info("%d contact(s) ready to import%s", len(good), " (dry run)" if args.dry_run else "")
    for row in good:
        print(f"{row['email']:<28} {row['country']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
