import logging
import string

log = logging.getLogger(__name__)

# appended to every alert, filled in from the channel's attributes
FOOTER = string.Template("\n-- via $name (up to $retries tries)")


class DeliveryError(Exception):
    pass


class Channel:
    """A destination for alerts; subclasses implement `_post`."""

    def __init__(self, name, retries=3):
        self.name = name
        self.retries = retries
        self.outbox = []

    def _post(self, text):
        raise NotImplementedError

    def deliver(self, text):
        if hasattr(self, "allow") and not self.allow():
            log.warning("%s: rate limited, dropping alert", self.name)
            return False
        text += FOOTER.substitute(vars(self))
        for attempt in range(1, self.retries + 1):
            try:
                self._post(text)
                return True
            except DeliveryError as exc:
                log.warning("%s: attempt %d failed: %s", self.name, attempt, exc)
        return False


class EmailChannel(Channel):
    def __init__(self, name, address, retries=3):
        super().__init__(name, retries=retries)
        self.address = address

    def _post(self, text):
        self.outbox.append((self.address, text))
