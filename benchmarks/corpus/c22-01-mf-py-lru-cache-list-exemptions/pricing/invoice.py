"""An invoice per order: its priced lines and totals."""

import logging
from dataclasses import dataclass, field

from .lines import price_line

log = logging.getLogger("pricing.invoice")


@dataclass
class Invoice:
    order_id: str
    lines: list = field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(pl.gross for pl in self.lines), 2)


def build_invoice(order) -> Invoice:
    invoice = Invoice(order.order_id)
    for line in order.lines:
        invoice.lines.append(price_line(order, line))
        log.debug("%s %s: %s", order.order_id, line.sku, invoice.lines[-1])
    return invoice
