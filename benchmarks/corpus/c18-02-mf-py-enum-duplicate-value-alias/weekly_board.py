"""Print the weekly help-desk board from the vendor's ticket export.

    python weekly_board.py --today 2026-03-09
"""

import argparse
import logging
from datetime import date

from helpdesk import BOARD_ORDER, STALE_AFTER_DAYS, board_columns, parse_export, render_board

EXPORT = """id,subject,status,agent,updated
4101,Cannot reset password,1,ak,2026-03-08
4102,Invoice shows wrong VAT number,2,mb,2026-03-02
4103,Export to CSV times out,3,rs,2026-02-27
4104,Shipping label printer offline,3,ak,2026-03-05
4105,Refund for duplicate order,5,mb,2026-03-06
4106,SSO login loop on mobile,2,rs,2026-02-25
4107,Carrier API returns 502,3,ak,2026-03-01
4108,Change of billing address,6,mb,2026-02-20
4109,Bulk import rejects umlauts,1,rs,2026-03-09
"""

log = logging.getLogger("weekly_board")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--today", type=date.fromisoformat, default=date(2026, 3, 9))
    p.add_argument("--stale-after", type=int, default=STALE_AFTER_DAYS)
    return p.parse_args()


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args = parse_args()
    tickets = parse_export(EXPORT)
    columns = board_columns(tickets, BOARD_ORDER)
    print(render_board(columns, args.today, args.stale_after))
    log.info("%d active tickets", sum(t.status.is_active for t in tickets))


if __name__ == "__main__":
    main()
