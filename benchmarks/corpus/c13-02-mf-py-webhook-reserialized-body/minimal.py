import hashlib
import hmac
import json
from types import SimpleNamespace

SIGNATURE_HEADER = "X-Relay-Signature"


def sign(body, secret):
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def verify(body, header, secret, delivery):
    if not hmac.compare_digest(sign(body, secret), header):
        raise ValueError(f"bad signature on delivery {delivery}")


class Receiver:
    def __init__(self, cfg):
        self.cfg = cfg

    def handle(self, raw, headers):
        payload = json.loads(raw)
        delivery = payload["id"]
        verify(json.dumps(payload).encode(), headers.get(SIGNATURE_HEADER), self.cfg.secret, delivery)


cfg = SimpleNamespace(secret=b"k")
raw = json.dumps({"id": "evt_1001"}, separators=(",", ":"), sort_keys=True).encode("utf-8")
Receiver(cfg).handle(raw, {SIGNATURE_HEADER: sign(raw, cfg.secret)})
