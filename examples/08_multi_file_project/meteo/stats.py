"""Daily summaries of one station's readings."""
import statistics

from .units import c_to_f


def summarize(readings):
    temps = [r["temp_c"] for r in readings]
    q1, median, q3 = statistics.quantiles(temps, n=4)
    return {"n": len(temps), "median": median, "iqr": q3 - q1, "max_f": c_to_f(max(temps))}


if __name__ == "__main__":
    print(summarize([{"temp_c": t} for t in (1.0, 2.0, 3.0, 4.0)]))
