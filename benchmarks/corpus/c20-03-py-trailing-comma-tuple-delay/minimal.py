from types import SimpleNamespace


def backoff_schedule(policy):
    delays = []
    for attempt in range(policy.retries):
        delay = min(policy.base_delay * 2 ** attempt, policy.max_delay)
        delays.append(delay)
    return delays


merged = {"retries": "3", "base_delay": "1.0", "max_delay": "60"}
base_delay = float(merged["base_delay"]),  # the trailing comma makes a 1-tuple: (1.0,)
backoff_schedule(SimpleNamespace(retries=3, base_delay=base_delay, max_delay=float(merged["max_delay"])))
