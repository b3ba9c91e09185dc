"""Tokenize a small corpus and iterate over padded training batches (project entry point)."""
import torch
from torch.utils.data import DataLoader

from textdata import CharVocab, SentenceDataset

CORPUS = [
    "the cat sat on the mat",
    "a quick brown fox jumps over the lazy dog",
    "tensors flow through the graph",
    "hello world",
    "padding makes every sequence the same length",
    "short one",
    "reproducers should be small and self contained",
    "ok",
]


def main():
    vocab = CharVocab.build(CORPUS)
    dataset = SentenceDataset(CORPUS, vocab, max_len=24)
    loader = DataLoader(dataset, batch_size=4, shuffle=False)
    for step, batch in enumerate(loader):
        ids, lengths = batch["ids"], batch["length"]
        print(f"batch {step}: ids {tuple(ids.shape)}, mean length {lengths.float().mean():.1f}")
    print("vocab size", len(vocab))


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
