from collections import Counter


def summarise(kind, rows):
    if kind == "orders":
        by_cur = Counter()
        for row in rows:
            by_cur[row["currency"]] += float(row["total"])
        return ", ".join(f"{cur} {amount:.2f}" for cur, amount in sorted(by_cur.items()))
    if kind == "refunds":
        return f"{len(rows)} refunds, {sum(float(r['amount']) for r in rows):.2f} refunded"
    if kind == "shipments":
        carriers = Counter(row["carrier"] for row in rows)
        return ", ".join(f"{c}: {n}" for c, n in carriers.most_common())
    if kind == "stock":
        low = [r["sku"] for r in rows if float(r["on_hand"]) < 5]
        return f"{len(rows)} stock lines, low: {', '.join(low) or 'none'}"
    return f"{len(rows)} rows"
