import string

FOOTER = string.Template("\n-- via $name (up to $retries tries)")


class Channel:
    def __init__(self, name, retries=3):
        self.name = name
        self.retries = retries


class RateLimitMixin:
    def __init__(self, *args, per_minute=30, **kwargs):
        self.per_minute = per_minute


class SlackChannel(RateLimitMixin, Channel):
    pass


FOOTER.substitute(vars(SlackChannel("ops-slack", retries=2)))
