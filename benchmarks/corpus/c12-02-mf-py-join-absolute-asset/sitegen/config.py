from dataclasses import dataclass, field


@dataclass
class SiteConfig:
    title: str = "Acme Tools — documentation"
    base_url: str = "https://docs.acme.example/"
    out_dir: str = "public"
    pretty_urls: bool = True  # about.md -> about/index.html
    nav: list = field(default_factory=lambda: ["index", "install", "usage", "faq"])


def load_config(overrides=None):
    cfg = SiteConfig()
    for key, value in (overrides or {}).items():
        if not hasattr(cfg, key):
            raise KeyError(f"unknown config key {key!r}")
        setattr(cfg, key, value)
    return cfg
