def load_parcels(rows):
    parcels = []
    for row in rows:
        parcels.append(row)
        return parcels  # indented into the loop: returns after the first parcel


manifest, expected = "M-7", 3
got = load_parcels(["P-7001", "P-7002", "P-7004"])
if len(got) != expected:
    raise ValueError(f"manifest {manifest}: declared {expected} parcels, export has {len(got)}")
