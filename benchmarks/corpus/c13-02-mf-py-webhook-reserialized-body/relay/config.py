from dataclasses import dataclass

SIGNATURE_HEADER = "X-Relay-Signature"
DELIVERY_HEADER = "X-Relay-Delivery"


@dataclass
class RelayConfig:
    secret: bytes = b"whsec_staging_4f1c9a"
    user_agent: str = "relay/2.3"
    max_body_bytes: int = 64 * 1024
