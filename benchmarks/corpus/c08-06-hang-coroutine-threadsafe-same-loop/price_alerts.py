"""Check price alerts; currency conversion goes through an async rate service with a sync facade."""
import asyncio
import logging
from dataclasses import dataclass

log = logging.getLogger("alerts")

RATES = {"EUR": 1.0, "USD": 0.93, "GBP": 1.17}


class RateService:
    """Async client for the exchange-rate API (simulated), with a sync facade for old plugins."""

    def __init__(self, loop):
        self.loop = loop
        self.cache = {}

    async def fetch(self, currency):
        if currency not in self.cache:
            await asyncio.sleep(0.01)  # the HTTP round trip
            self.cache[currency] = RATES[currency]
        return self.cache[currency]

    def rate_sync(self, currency):
        """For synchronous callers (the alert rules below)."""
        future = asyncio.run_coroutine_threadsafe(self.fetch(currency), self.loop)
        return future.result()


@dataclass
class Alert:
    symbol: str
    currency: str
    threshold_eur: float

    def triggered(self, price, rates):
        return price * rates.rate_sync(self.currency) >= self.threshold_eur


async def latest_prices(symbols):
    await asyncio.sleep(0.01)
    return {s: 100.0 + 7.5 * i for i, s in enumerate(symbols)}


async def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rates = RateService(asyncio.get_running_loop())
    alerts = [Alert("ACME", "USD", 100.0), Alert("GLOBX", "GBP", 150.0), Alert("INIT", "EUR", 90.0)]
    prices = await latest_prices([a.symbol for a in alerts])
    log.info("prices: %s", prices)
    fired = [a for a in alerts if a.triggered(prices[a.symbol], rates)]
    for a in fired:
        print(f"ALERT {a.symbol}: {prices[a.symbol]:.2f} {a.currency} over {a.threshold_eur:.2f} EUR")
    print(f"{len(fired)} of {len(alerts)} alerts fired")


if __name__ == "__main__":
    asyncio.run(main())
