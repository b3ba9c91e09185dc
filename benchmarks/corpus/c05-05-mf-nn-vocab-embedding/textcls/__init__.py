"""A bag-of-embeddings text classifier."""
