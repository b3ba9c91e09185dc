"""relay: sign outgoing webhook deliveries and verify incoming ones."""
