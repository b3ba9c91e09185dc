"""Per-site settings: the theme defaults, overridden by each site's own section."""
import copy
import logging

log = logging.getLogger(__name__)

DEFAULTS = {
    "theme": "plain",
    "lang": "en",
    "footer": "© the platform team",
    "menu": [("Home", "index"), ("About", "about")],
    "feeds": {"rss": True, "atom": False},
}


def site_settings(name, overrides):
    settings = copy.copy(DEFAULTS)
    settings["name"] = name
    for key, value in overrides.items():
        if key == "extra_menu":
            settings["menu"] += value
        elif key == "feeds":
            settings["feeds"].update(value)
        else:
            settings[key] = value
    log.debug("%s: %d menu entries", name, len(settings["menu"]))
    return settings
