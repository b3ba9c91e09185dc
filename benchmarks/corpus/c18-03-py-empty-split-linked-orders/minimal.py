def linked_orders(row):
    return row["linked_orders"].strip().split(";")


def refund_total(linked, orders):
    total = 0
    for oid in linked:
        order = orders[int(oid)]
        total += order
    return total


refund_total(linked_orders({"linked_orders": ""}), {1043: 59.9})
