"""sitegen: the docs site's tiny static generator."""
