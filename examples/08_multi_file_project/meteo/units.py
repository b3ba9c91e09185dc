"""Unit conversions and formatting."""


def c_to_f(celsius):
    return celsius * 9 / 5 + 32


def lapse_corrected(temp_c, elevation_m):
    """Temperature reduced to sea level (standard lapse rate, 6.5 K per km)."""
    return temp_c + 6.5 * elevation_m / 1000


def fmt(value, unit="C"):
    return f"{value:6.1f} {unit}"
