import math
import random


def parse_rate(text):
    if text.endswith("%"):
        return float(text[:-1])
    return float(text)


def pick_audit_sample(rows, rate, rng):
    k = max(1, math.ceil(len(rows) * rate))
    picked = rng.sample(rows, k)
    return picked


pick_audit_sample(["T-9001", "T-9002"], parse_rate("15%"), random.Random(2026))
