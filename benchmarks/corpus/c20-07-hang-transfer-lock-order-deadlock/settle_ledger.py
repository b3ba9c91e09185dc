"""Settle the day's payouts and refunds between wallets, two worker threads (one per queue)."""

import argparse
import logging
import threading
import time
from dataclasses import dataclass, field

log = logging.getLogger("settle_ledger")


@dataclass
class Wallet:
    name: str
    balance: int  # cents
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    history: list = field(default_factory=list, repr=False)


class InsufficientFunds(Exception):
    pass


def audit(entry: str, delay: float) -> None:
    """Append to the audit trail (a network write in production; simulated latency here)."""
    time.sleep(delay)
    log.debug("audit: %s", entry)


def transfer(src: Wallet, dst: Wallet, cents: int, delay: float) -> None:
    with src.lock:
        if src.balance < cents:
            raise InsufficientFunds(f"{src.name} has {src.balance}, needs {cents}")
        audit(f"reserve {cents} from {src.name}", delay)
        with dst.lock:
            src.balance -= cents
            dst.balance += cents
            src.history.append(-cents)
            dst.history.append(cents)


def worker(name: str, jobs: list[tuple[Wallet, Wallet, int]], delay: float, failed: list) -> None:
    for src, dst, cents in jobs:
        try:
            transfer(src, dst, cents, delay)
        except InsufficientFunds as exc:
            failed.append((name, str(exc)))
    log.info("%s: done with %d transfers", name, len(jobs))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--audit-latency", type=float, default=0.02)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(threadName)s %(name)s: %(message)s")

    merchant = Wallet("merchant", 50_000)
    customer = Wallet("customer", 20_000)
    payouts = [(merchant, customer, 1_500)] * args.rounds  # cashback to the customer
    refunds = [(customer, merchant, 700)] * args.rounds  # chargebacks to the merchant
    failed: list = []
    threads = [threading.Thread(target=worker, args=("payouts", payouts, args.audit_latency, failed)),
               threading.Thread(target=worker, args=("refunds", refunds, args.audit_latency, failed))]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = merchant.balance + customer.balance
    log.info("settled in %.2fs: merchant %d, customer %d (total %d), %d failed",
             time.perf_counter() - start, merchant.balance, customer.balance, total, len(failed))


if __name__ == "__main__":
    main()
