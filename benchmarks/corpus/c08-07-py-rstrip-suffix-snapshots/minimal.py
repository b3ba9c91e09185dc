MANIFEST = ["ledger", "payment_run", "session"]


def table_name(filename):
    return filename.rstrip(".json")


index = {table_name(f) for f in ["ledger.json", "payment_run.json", "session.json"]}
missing = sorted(t for t in MANIFEST if t not in index)
assert not missing, f"tables without a snapshot: {missing}"
