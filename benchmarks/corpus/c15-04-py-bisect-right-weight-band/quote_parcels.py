"""Quote postage for the day's outgoing parcels from the carrier's weight bands."""

import argparse
import bisect
import csv
import io

# carrier tariff: a parcel weighing UP TO (and including) the limit pays that band's price
BAND_LIMITS_KG = [1.0, 2.0, 5.0, 10.0, 20.0, 31.5]
BAND_PRICES_EUR = [4.49, 5.49, 7.99, 10.49, 16.99, 22.99]
REMOTE_SURCHARGE_EUR = 3.50
REMOTE_POSTCODES = ("18565", "25849", "25859", "25863", "25869", "26465", "26474", "26486")

PARCELS_CSV = """parcel,postcode,weight_kg,length_cm,width_cm,height_cm
P-3301,10115,0.84,30,20,10
P-3302,80331,4.20,40,30,25
P-3303,25849,1.00,25,20,8
P-3304,50667,12.75,60,40,40
P-3305,20095,31.50,60,40,40
P-3306,01067,2.35,35,25,15
"""


def read_parcels(text):
    parcels = []
    for row in csv.DictReader(io.StringIO(text)):
        dims = [float(row[k]) for k in ("length_cm", "width_cm", "height_cm")]
        parcels.append({"id": row["parcel"], "postcode": row["postcode"],
                        "weight": float(row["weight_kg"]), "dims": dims})
    return parcels


def billable_weight(parcel, volumetric_divisor=5000):
    """The carrier bills the larger of the real and the volumetric weight."""
    length, width, height = parcel["dims"]
    return max(parcel["weight"], round(length * width * height / volumetric_divisor, 2))


def band_for(weight):
    """Index of the tariff band a weight falls into."""
    return bisect.bisect_right(BAND_LIMITS_KG, weight)


def quote(parcel):
    weight = billable_weight(parcel)
    band = band_for(weight)
    if band >= len(BAND_PRICES_EUR):
        raise ValueError(f"parcel {parcel['id']}: {weight:.2f} kg is over the {BAND_LIMITS_KG[-1]} kg limit")
    price = BAND_PRICES_EUR[band]
    if parcel["postcode"].startswith(REMOTE_POSTCODES):
        price += REMOTE_SURCHARGE_EUR
    return weight, price


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--only", help="comma-separated parcel ids")
    args = p.parse_args()
    parcels = read_parcels(PARCELS_CSV)
    if args.only:
        parcels = [x for x in parcels if x["id"] in args.only.split(",")]
    total = 0.0
    for parcel in parcels:
        weight, price = quote(parcel)
        total += price
        print(f"{parcel['id']}  {weight:6.2f} kg  {price:6.2f} EUR")
    print(f"total {total:.2f} EUR for {len(parcels)} parcel(s)")


if __name__ == "__main__":
    main()
