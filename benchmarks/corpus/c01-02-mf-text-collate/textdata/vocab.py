PAD, BOS, EOS, UNK = "<pad>", "<bos>", "<eos>", "<unk>"


class CharVocab:
    def __init__(self, symbols):
        self.itos = [PAD, BOS, EOS, UNK] + sorted(symbols)
        self.stoi = {s: i for i, s in enumerate(self.itos)}

    @classmethod
    def build(cls, texts):
        return cls({ch for text in texts for ch in text})

    def __len__(self):
        return len(self.itos)

    @property
    def pad_id(self):
        return self.stoi[PAD]

    def encode(self, text):
        unk = self.stoi[UNK]
        return [self.stoi[BOS]] + [self.stoi.get(ch, unk) for ch in text] + [self.stoi[EOS]]

    def decode(self, ids):
        return "".join(self.itos[i] for i in ids if i > 3)
