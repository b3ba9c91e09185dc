import csv
import io

EXPORT_FIELDS = ["order_id", "total"]
order = {"order_id": "1003", "total": 35.1}
order["discount"] = 3.9
csv.DictWriter(io.StringIO(), fieldnames=EXPORT_FIELDS).writerow(order)
