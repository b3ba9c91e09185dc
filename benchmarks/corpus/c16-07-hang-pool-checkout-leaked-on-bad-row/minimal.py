import threading
from decimal import Decimal

slots = threading.BoundedSemaphore(2)


def update_price(price_text):
    slots.acquire()
    price = Decimal(price_text)
    slots.release()
    return price


for text in ["19,90", "n/a", "9.99"]:
    try:
        update_price(text)
    except ArithmeticError:
        pass
