from enum import Enum


class Status(Enum):
    PENDING = 3  # waiting for the customer
    ON_HOLD = 3  # waiting for a third party


def board_columns(order):
    by_status = {s.name: [] for s in Status}
    return [(name, by_status[name]) for name in order]


board_columns(("PENDING", "ON_HOLD"))
