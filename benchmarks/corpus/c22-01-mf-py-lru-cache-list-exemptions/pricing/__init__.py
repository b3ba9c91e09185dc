"""Order pricing: parse exported orders, price their lines with the regional tax rules, total them."""

from .invoice import Invoice, build_invoice
from .lines import PricedLine, price_line
from .orders import Order, OrderLine, parse_orders
from .rates import tax_rate

__all__ = ["Invoice", "Order", "OrderLine", "PricedLine", "build_invoice", "parse_orders", "price_line", "tax_rate"]
