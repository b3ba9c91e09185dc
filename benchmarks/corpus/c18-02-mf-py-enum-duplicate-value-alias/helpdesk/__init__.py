"""Help-desk queue tools: ticket statuses, the export parser and the weekly board report."""

from .parse import parse_export
from .report import board_columns, render_board
from .settings import BOARD_ORDER, STALE_AFTER_DAYS
from .status import Status

__all__ = ["Status", "parse_export", "board_columns", "render_board", "BOARD_ORDER", "STALE_AFTER_DAYS"]
