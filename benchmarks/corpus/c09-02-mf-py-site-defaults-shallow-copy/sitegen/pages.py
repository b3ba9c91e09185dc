from dataclasses import dataclass


@dataclass
class Page:
    slug: str
    title: str
    body: str

    @property
    def url(self):
        return "/" if self.slug == "index" else f"/{self.slug}/"


def collect_pages(sources):
    """``sources``: {slug: (title, markdown body)} as the content repo lays them out."""
    return {slug: Page(slug, title, body) for slug, (title, body) in sources.items()}
