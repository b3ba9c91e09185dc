# the columns of the weekly board, left to right
BOARD_ORDER = ("NEW", "OPEN", "PENDING", "ON_HOLD", "SOLVED")
STALE_AFTER_DAYS = 7
AGENTS = {"ak": "Aiko Kato", "mb": "Marta Bell", "rs": "Ravi Shah"}
