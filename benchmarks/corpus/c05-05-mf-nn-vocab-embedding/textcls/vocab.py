PAD = "<pad>"


class Vocab:
    """Word -> id; id 0 is the padding id."""

    def __init__(self, texts):
        words = sorted({w for t in texts for w in t.lower().split()})
        self.stoi = {w: i for i, w in enumerate(words, start=1)}
        self.stoi[PAD] = 0
        self.itos = {i: w for w, i in self.stoi.items()}

    def __len__(self):
        return len(self.stoi) - 1  # real words only

    def encode(self, text, length):
        ids = [self.stoi.get(w, 0) for w in text.lower().split()][:length]
        return ids + [0] * (length - len(ids))
