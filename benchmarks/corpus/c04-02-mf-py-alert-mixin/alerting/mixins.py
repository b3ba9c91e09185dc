import time


class RateLimitMixin:
    """At most `per_minute` deliveries in any 60-second window."""

    def __init__(self, *args, per_minute=30, clock=time.monotonic, **kwargs):
        self.per_minute = per_minute
        self._clock = clock
        self._sent = []

    def allow(self):
        now = self._clock()
        self._sent = [t for t in self._sent if now - t < 60.0]
        if len(self._sent) >= self.per_minute:
            return False
        self._sent.append(now)
        return True
