from .channels import Channel
from .mixins import RateLimitMixin


class SlackChannel(RateLimitMixin, Channel):
    def __init__(self, name, webhook, retries=3, per_minute=20):
        super().__init__(name, retries=retries, per_minute=per_minute)
        self.webhook = webhook

    def _post(self, text):
        self.outbox.append({"url": self.webhook, "text": text})
