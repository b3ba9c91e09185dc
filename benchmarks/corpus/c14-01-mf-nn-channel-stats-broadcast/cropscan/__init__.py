"""cropscan: classify drone tiles of a field by crop stress (healthy, dry, nitrogen, pest)."""
