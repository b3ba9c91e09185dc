"""helpdesk: turn the tracker's JSON export into a morning triage report."""
