"""Orders as they come from the shop's nightly dump (a CSV; a small sample is built in)."""
import csv
import io

SAMPLE = """order_id,day,customer,sku,quantity,unit_price
1001,2024-05-02,c-17,TEA-200,2,6.50
1002,2024-05-03,c-03,MUG-010,1,12.00
1003,2024-05-03,c-17,TEA-200,6,6.50
1004,2024-05-03,c-41,SPOON-3,12,1.20
1005,2024-05-04,c-08,MUG-010,2,12.00
"""


def load_orders(text: str = SAMPLE) -> list[dict]:
    rows = []
    for raw in csv.DictReader(io.StringIO(text)):
        rows.append({**raw, "quantity": int(raw["quantity"]), "unit_price": float(raw["unit_price"])})
    return rows
