"""Monthly invoices in the customer's currency."""
from .ledger import Ledger
from .rates import load_rates

__all__ = ["Ledger", "load_rates"]
