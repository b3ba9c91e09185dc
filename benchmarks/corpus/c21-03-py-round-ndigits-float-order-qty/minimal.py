import csv
import io


def reorder_quantity(need):
    return round(max(need, 0), 0)  # round() with ndigits returns a float: 56.0


def parse_order(text):
    for row in csv.DictReader(io.StringIO(text)):
        qty = int(row["qty"])
    return qty


parse_order(f"sku,qty\nFLT-220,{reorder_quantity(55.7)}\n")
