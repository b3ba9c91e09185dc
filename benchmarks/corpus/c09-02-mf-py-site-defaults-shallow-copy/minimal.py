import copy

DEFAULTS = {"menu": [("Home", "index"), ("About", "about")]}


def site_settings(name, overrides):
    settings = copy.copy(DEFAULTS)
    settings["name"] = name
    for key, value in overrides.items():
        if key == "extra_menu":
            settings["menu"] += value
    return settings


site_settings("docs", {"extra_menu": [("API", "api")]})
settings = site_settings("blog", {})
pages = {"index": "/", "about": "/about/"}
for label, slug in settings["menu"]:
    if slug not in pages:
        raise ValueError(f"site {settings['name']!r}: menu entry {label!r} links to missing page {slug!r}")
