"""quakefit: a small regression package (synthetic site-response data, an MLP, a training loop)."""
