# what the site is made of, as the theme's manifest lists it (the real build reads site.toml)
PAGES = ["index.md", "install.md", "usage.md", "faq.md", "changelog.md"]

# assets are listed by their URL on the site
ASSETS = [
    "favicon.ico",
    "/css/site.css",
    "/js/search.js",
    "/img/logo.svg",
]


def load_manifest():
    return {"pages": list(PAGES), "assets": list(ASSETS)}
