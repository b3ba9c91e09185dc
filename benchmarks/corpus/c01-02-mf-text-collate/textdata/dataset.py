import torch
from torch.utils.data import Dataset

from .padding import pad_to


class SentenceDataset(Dataset):
    def __init__(self, texts, vocab, max_len=32):
        self.texts = list(texts)
        self.vocab = vocab
        self.max_len = max_len

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, index):
        ids = self.vocab.encode(self.texts[index])
        length = min(len(ids), self.max_len)
        ids = pad_to(ids, len(ids), self.vocab.pad_id)
        return {"ids": torch.tensor(ids), "length": torch.tensor(length)}
