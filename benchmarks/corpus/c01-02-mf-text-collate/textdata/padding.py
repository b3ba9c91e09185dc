def pad_to(ids, length, pad_id):
    """Right-pad (or cut) a list of token ids to ``length``."""
    if len(ids) >= length:
        return ids[:length]
    return ids + [pad_id] * (length - len(ids))
