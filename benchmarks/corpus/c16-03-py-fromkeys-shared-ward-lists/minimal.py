WARDS = {"A1": 8, "B3": 6, "C2": 10}


def group_by_ward(admissions):
    by_ward = dict.fromkeys(WARDS, [])
    for rec in admissions:
        by_ward[rec["ward"]].append(rec)
    return by_ward


def check_capacity(by_ward):
    for ward, patients in by_ward.items():
        if len(patients) > WARDS[ward]:
            raise RuntimeError(f"ward {ward} over capacity: {len(patients)} patients for {WARDS[ward]} beds")


check_capacity(group_by_ward([{"ward": w} for w in "A1 C2 B3 A1 C2 B3 A1 C2 B3 A1".split()]))
