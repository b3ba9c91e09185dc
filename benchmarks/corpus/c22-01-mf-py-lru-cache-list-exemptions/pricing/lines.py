"""Price one order line: net, tax and gross, rounded to cents."""

from dataclasses import dataclass

from .rates import tax_rate


@dataclass
class PricedLine:
    sku: str
    net: float
    tax: float

    @property
    def gross(self) -> float:
        return round(self.net + self.tax, 2)


def price_line(order, line) -> PricedLine:
    net = round(line.qty * line.unit_price, 2)
    rate = tax_rate(order.region, line.category, order.exemptions)
    return PricedLine(line.sku, net, round(net * rate, 2))
