from enum import Enum


class Status(Enum):
    """Ticket states, numbered as the vendor's API reports them."""

    NEW = 1
    OPEN = 2
    PENDING = 3  # waiting for the customer
    ON_HOLD = 3  # waiting for a third party
    SOLVED = 5
    CLOSED = 6

    @property
    def is_active(self):
        return self not in (Status.SOLVED, Status.CLOSED)

    @classmethod
    def from_code(cls, code):
        return cls(int(code))
