"""orderkit: loading, pricing and exporting shop orders."""
