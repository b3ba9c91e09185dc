import os

DEFAULTS = {
    "base_url": "https://billing.example.com/api/v2",
    "page_size": 2,
    "timeout": 10.0,
    "currency": "EUR",
}


def load_settings(env=None):
    """The defaults, overridden by BILLING_* environment variables."""
    env = os.environ if env is None else env
    settings = dict(DEFAULTS)
    for key, default in DEFAULTS.items():
        raw = env.get(f"BILLING_{key.upper()}")
        if raw is not None:
            settings[key] = type(default)(raw)
    return settings
