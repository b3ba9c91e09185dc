"""sitegen: build the static team sites from one shared theme and per-site settings."""
