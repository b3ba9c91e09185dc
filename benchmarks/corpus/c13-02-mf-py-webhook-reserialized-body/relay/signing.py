import hashlib
import hmac


def sign(body, secret):
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def verify(body, header, secret, delivery):
    if not header or not header.startswith("sha256="):
        raise ValueError(f"delivery {delivery} has no sha256 signature")
    if not hmac.compare_digest(sign(body, secret), header):
        raise ValueError(f"bad signature on delivery {delivery}")
