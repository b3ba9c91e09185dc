from dateutil.parser import parse

parse("01/01/2019 GCH 11687", fuzzy_with_tokens=True)
