import bisect

BAND_LIMITS_KG = [1.0, 2.0, 5.0, 10.0, 20.0, 31.5]
BAND_PRICES_EUR = [4.49, 5.49, 7.99, 10.49, 16.99, 22.99]


def band_for(weight):
    return bisect.bisect_right(BAND_LIMITS_KG, weight)


parcel, weight = {"id": "P-3305"}, 31.5
band = band_for(weight)
if band >= len(BAND_PRICES_EUR):
    raise ValueError(f"parcel {parcel['id']}: {weight:.2f} kg is over the {BAND_LIMITS_KG[-1]} kg limit")
