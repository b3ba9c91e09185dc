records = list(range(203))
per_page = 16
pages = [records[i * per_page:(i + 1) * per_page] for i in range(len(records) // per_page)]
exported = sum(len(page) for page in pages)
assert exported == len(records), f"export lost records: {exported} of {len(records)}"
