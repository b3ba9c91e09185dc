"""Check and summarise last night's warehouse exports before they are loaded.

    python ingest_exports.py [--only orders,shipments] [--strict]
"""

import argparse
import logging
import sys

from exports import ExportError, check_columns, check_rows, read_export, summarise

log = logging.getLogger("ingest")

DROPS = {
    "orders": """
order_id,customer,total,currency,placed_at
O-1001,ACME GmbH,412.50,EUR,2026-11-27T08:14
O-1002,Northwind,89.90,USD,2026-11-27T09:02
O-1003,Bluebird Ltd,1200.00,GBP,2026-11-27T11:45
O-1004,ACME GmbH,15.00,EUR,2026-11-27T16:30
""",
    "refunds": """
# partial refunds included
refund_id,order_id,amount,reason
R-77,O-0990,19.99,damaged
R-78,O-1002,89.90,not delivered
""",
    "shipments": """
tracking_no,order_id,carrier,shipped_at
1Z999AA10123456784,O-1001,UPS,2026-11-27T17:00
JD014600006281234567,O-1003,DHL,2026-11-27T18:20
00340434161234567890,O-1004,DPD,2026-11-27T18:25
""",
    "stock": """
sku,warehouse,on_hand,reserved
KB-101,DUS,42,3
KB-102,DUS,4,0
MS-220,LEJ,0,0
""",
}


def main(argv=None):
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--only", default="", help="comma-separated export kinds (default: all)")
    p.add_argument("--strict", action="store_true", help="stop at the first bad export")
    args = p.parse_args(argv)
    kinds = [k for k in args.only.split(",") if k] or list(DROPS)
    failed = 0
    for kind in kinds:
        header, rows = read_export(kind, DROPS[kind])
        check_columns(kind, header)
        try:
            check_rows(kind, rows)
        except ExportError as exc:
            log.error("%s", exc)
            failed += 1
            if args.strict:
                break
            continue
        print(f"{kind:10s} {summarise(kind, rows)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
