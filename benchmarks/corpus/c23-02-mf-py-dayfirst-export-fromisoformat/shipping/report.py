from collections import defaultdict

from shipping.records import Shipment


def lateness_report(shipments: list[Shipment]) -> dict[str, dict[str, float]]:
    per_carrier: dict[str, list[int]] = defaultdict(list)
    for s in shipments:
        if s.delivered is None:
            continue
        per_carrier[s.carrier].append((s.delivered - s.shipped).days - s.promised_days)
    report = {}
    for carrier, delays in sorted(per_carrier.items()):
        late = [d for d in delays if d > 0]
        report[carrier] = {"delivered": len(delays), "late": len(late),
                           "late_share": round(len(late) / len(delays), 3),
                           "mean_delay": round(sum(late) / len(late), 2) if late else 0.0}
    return report
