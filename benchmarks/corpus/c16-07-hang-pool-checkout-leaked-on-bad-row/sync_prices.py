"""Apply the supplier's nightly price feed to the shop database through a small connection pool."""

import argparse
import sqlite3
import tempfile
import threading
from decimal import Decimal, InvalidOperation
from pathlib import Path

FEED = """sku;price;currency
KB-100;49.90;EUR
KB-101;54.90;EUR
MS-220;19,90;EUR
MS-221;24.50;EUR
HD-310;n/a;EUR
HD-311;89.00;EUR
CB-005;7.49;EUR
CB-006;9.99;EUR
"""


class ConnectionPool:
    def __init__(self, path, size=2):
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle = [sqlite3.connect(path, check_same_thread=False) for _ in range(size)]

    def checkout(self):
        self._slots.acquire()
        with self._lock:
            return self._idle.pop()

    def checkin(self, conn):
        with self._lock:
            self._idle.append(conn)
        self._slots.release()


def parse_price(text):
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ValueError(f"bad price {text!r}") from None


def update_price(pool, sku, price_text):
    conn = pool.checkout()
    price = parse_price(price_text)
    conn.execute("UPDATE products SET price = ? WHERE sku = ?", (str(price), sku))
    conn.commit()
    pool.checkin(conn)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pool-size", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shop.db"
        with sqlite3.connect(db) as setup:
            setup.execute("CREATE TABLE products (sku TEXT PRIMARY KEY, price TEXT)")
            setup.executemany("INSERT INTO products VALUES (?, '0')",
                              [(line.split(";")[0],) for line in FEED.splitlines()[1:]])
        pool = ConnectionPool(db, size=args.pool_size)
        skipped = []
        for line in FEED.strip().splitlines()[1:]:
            sku, price, _currency = line.split(";")
            try:
                update_price(pool, sku, price)
            except ValueError as exc:
                skipped.append(f"{sku}: {exc}")
        print(f"updated {len(FEED.splitlines()) - 1 - len(skipped)} prices, skipped {len(skipped)}")


if __name__ == "__main__":
    main()
