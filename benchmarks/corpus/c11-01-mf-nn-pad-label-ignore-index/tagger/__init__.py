"""tagger: a small part-of-speech tagger for the product-search query log."""
