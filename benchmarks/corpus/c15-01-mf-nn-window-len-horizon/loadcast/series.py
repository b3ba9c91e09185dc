import math

import torch

# typical weekday load profile of the building, kW per hour (00:00 ... 23:00)
WEEKDAY_KW = [41, 39, 38, 38, 40, 47, 63, 88, 112, 121, 124, 126,
              119, 122, 125, 123, 117, 104, 86, 71, 62, 55, 49, 44]
WEEKEND_SCALE = 0.62
HEATING_KW_PER_DEGREE = 2.5


def outdoor_temp(hour):
    """A smooth synthetic outdoor temperature (deg C) for the heating term."""
    return 6.0 + 4.0 * math.sin(2 * math.pi * (hour % 24 - 9) / 24)


def load_series(days):
    """Hourly meter readings (kW), standardized, as a float tensor of shape (days * 24,)."""
    values = []
    for h in range(days * 24):
        day, hour = divmod(h, 24)
        base = WEEKDAY_KW[hour] * (WEEKEND_SCALE if day % 7 in (5, 6) else 1.0)
        heating = HEATING_KW_PER_DEGREE * max(0.0, 15.0 - outdoor_temp(h))
        values.append(base + heating)
    series = torch.tensor(values, dtype=torch.float32)
    return (series - series.mean()) / series.std()
