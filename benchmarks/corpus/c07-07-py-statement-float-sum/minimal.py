from decimal import Decimal


def parse_amount(text):
    return float(text.replace(",", ""))


meta = {"period": "2026-10"}
opening, closing = parse_amount("1,520.10"), parse_amount("2,286.35")
computed = opening + sum(parse_amount(a) for a in ["2,410.55", "-1,644.30"])
assert computed == closing, f"{meta['period']} does not reconcile: computed {computed}, statement {closing}"
