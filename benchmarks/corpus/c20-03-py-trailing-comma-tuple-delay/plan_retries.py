"""Plan the retry schedule of the nightly sync jobs from their settings (no job is run: a dry plan)."""

import argparse
import random
from dataclasses import dataclass

SETTINGS = {
    "inventory": {"retries": "4", "base_delay": "0.5", "max_delay": "8"},
    "invoices": {"retries": "3", "max_delay": "30"},
    "crm": {"retries": "5", "base_delay": "2", "max_delay": "20", "jitter": "0.1"},
}
DEFAULTS = {"retries": "3", "base_delay": "1.0", "max_delay": "60", "jitter": "0"}


@dataclass
class RetryPolicy:
    job: str
    retries: int
    base_delay: float
    max_delay: float
    jitter: float

    def describe(self) -> str:
        return f"{self.job}: {self.retries} retries, base {self.base_delay}s, cap {self.max_delay}s"


def read_policy(job: str, raw: dict[str, str]) -> RetryPolicy:
    merged = {**DEFAULTS, **raw}
    retries = int(merged["retries"])
    base_delay = float(merged["base_delay"]),
    max_delay = float(merged["max_delay"])
    jitter = float(merged["jitter"])
    if retries < 0 or max_delay <= 0:
        raise ValueError(f"{job}: bad retry settings {raw}")
    return RetryPolicy(job, retries, base_delay, max_delay, jitter)


def backoff_schedule(policy: RetryPolicy, rng: random.Random) -> list[float]:
    """Exponential backoff, capped, with optional multiplicative jitter."""
    delays = []
    for attempt in range(policy.retries):
        delay = min(policy.base_delay * 2 ** attempt, policy.max_delay)
        if policy.jitter:
            delay *= 1 + rng.uniform(-policy.jitter, policy.jitter)
        delays.append(round(delay, 2))
    return delays


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", nargs="*", default=sorted(SETTINGS))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    policies = [read_policy(job, SETTINGS[job]) for job in args.jobs]
    for policy in policies:
        print(policy.describe())
    worst = 0.0
    for policy in policies:
        delays = backoff_schedule(policy, rng)
        print(f"  {policy.job}: waits {delays} ({sum(delays):.1f}s in all)")
        worst = max(worst, sum(delays))
    print(f"worst case: {worst:.1f}s of waiting before a job gives up")


if __name__ == "__main__":
    main()
