"""Quality control of raw readings."""

# QC flags the loggers attach to every reading: ok, estimated (gap-filled), bad (sensor fault)
VALID_FLAGS = ("ok", "est")
PLAUSIBLE_C = (-60.0, 60.0)


def plausible(reading):
    low, high = PLAUSIBLE_C
    return low <= reading["temp_c"] <= high


def clean(readings):
    """The readings the logger's own QC passed that are also physically plausible."""
    return [r for r in readings if r["flag"] in VALID_FLAGS and plausible(r)]
