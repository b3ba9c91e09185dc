"""acctsync: push the HR system's account export into the directory service."""
