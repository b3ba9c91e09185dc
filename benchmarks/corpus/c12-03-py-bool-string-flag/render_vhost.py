"""Render the storefront's nginx vhost from its .env settings (the deploy job pipes it to nginx -t)."""
import argparse
import logging
import os

log = logging.getLogger("render_vhost")

# the service's .env as it is checked into the deploy repo (the real job reads deploy/storefront.env)
DOTENV = """\
# storefront — production
SERVER_NAME=shop.acme.example
PORT=8443
UPSTREAM=127.0.0.1:9000
WORKERS=4
ENABLE_GZIP=true
MAINTENANCE_MODE=false
MAINTENANCE_PAGE=
CLIENT_MAX_BODY_MB=16
"""

SCHEMA = {
    "SERVER_NAME": str,
    "PORT": int,
    "UPSTREAM": str,
    "WORKERS": int,
    "ENABLE_GZIP": bool,
    "MAINTENANCE_MODE": bool,
    "MAINTENANCE_PAGE": str,
    "CLIENT_MAX_BODY_MB": int,
}

TEMPLATE = """\
server {{
    listen {PORT} ssl;
    server_name {SERVER_NAME};
    client_max_body_size {CLIENT_MAX_BODY_MB}m;
{gzip}{body}}}
"""


def parse_dotenv(text):
    pairs = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, raw = line.partition("=")
        if not sep:
            raise ValueError(f"line {lineno}: expected KEY=VALUE, got {line!r}")
        pairs[key.strip()] = raw.strip()
    return pairs


def load_settings(text, environ=None):
    """The .env values, overridden by STOREFRONT_* environment variables, converted by SCHEMA."""
    raw_values = parse_dotenv(text)
    for key in SCHEMA:
        env_value = (environ or {}).get(f"STOREFRONT_{key}")
        if env_value is not None:
            raw_values[key] = env_value
    cfg = {}
    for key, raw in raw_values.items():
        kind = SCHEMA.get(key)
        if kind is None:
            log.warning("ignoring unknown setting %s", key)
            continue
        cfg[key] = kind(raw)
    return cfg


def validate(cfg):
    if not 1 <= cfg["PORT"] <= 65535:
        raise ValueError(f"PORT {cfg['PORT']} out of range")
    if cfg["MAINTENANCE_MODE"] and not cfg["MAINTENANCE_PAGE"]:
        raise ValueError("MAINTENANCE_MODE is on but MAINTENANCE_PAGE is empty")


def render(cfg):
    gzip = "    gzip on;\n" if cfg["ENABLE_GZIP"] else ""
    if cfg["MAINTENANCE_MODE"]:
        body = f"    location / {{ return 503; }}\n    error_page 503 {cfg['MAINTENANCE_PAGE']};\n"
    else:
        body = f"    location / {{ proxy_pass http://{cfg['UPSTREAM']}; }}\n"
    return TEMPLATE.format(gzip=gzip, body=body, **cfg)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", help="write the vhost here instead of stdout")
    parser.add_argument("--use-environ", action="store_true", help="apply STOREFRONT_* overrides")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    cfg = load_settings(DOTENV, os.environ if args.use_environ else None)
    validate(cfg)
    text = render(cfg)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        log.info("wrote %s (%d workers upstream %s)", args.output, cfg["WORKERS"], cfg["UPSTREAM"])
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
