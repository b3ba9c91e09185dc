def normalize_code(code):
    return code.strip().lower()


def convert(amount_usd, currency, rates):
    return amount_usd * rates[currency]


rates = {normalize_code("EUR"): 0.92}
convert(10.0, "eur".upper(), rates)
