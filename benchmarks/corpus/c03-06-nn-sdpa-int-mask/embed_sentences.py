"""Sentence embeddings with a small bidirectional encoder (mean pooling over the real tokens).

python embed_sentences.py [--layers 2] [--dim 64] [--max-len 16]
"""
import argparse
import logging

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("embed")

PAD, CLS, UNK = 0, 1, 2
SENTENCES = ["the cat sat on the mat", "a dog", "attention is all you need", "hello world again and again"]


def build_vocab(sentences):
    words = sorted({w for s in sentences for w in s.split()})
    return {w: i + 3 for i, w in enumerate(words)}


def tokenize_batch(sentences, vocab, max_len):
    """ids and attention_mask (1 = real token, 0 = padding), padded to the longest sentence."""
    rows = [[CLS] + [vocab.get(w, UNK) for w in s.split()][: max_len - 1] for s in sentences]
    width = max(len(r) for r in rows)
    ids = torch.tensor([r + [PAD] * (width - len(r)) for r in rows])
    attention_mask = (ids != PAD).long()
    return {"input_ids": ids, "attention_mask": attention_mask}


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, dropout=0.0):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.dropout = dropout

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        p = self.dropout if self.training else 0.0
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = SelfAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.ff(self.ln2(x))


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size, dim=64, heads=4, layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids, attention_mask):
        t = input_ids.shape[1]
        x = self.tok(input_ids) + self.pos(torch.arange(t))
        mask = attention_mask[:, None, None, :]  # broadcast over heads and query positions
        for layer in self.layers:
            x = layer(x, mask)
        x = self.norm(x)
        weights = attention_mask.unsqueeze(-1).float()
        return (x * weights).sum(1) / weights.sum(1)


def main(argv=None):
    p = argparse.ArgumentParser(description="embed a few sentences")
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--max-len", type=int, default=16)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    vocab = build_vocab(SENTENCES)
    model = SentenceEncoder(len(vocab) + 3, dim=args.dim, layers=args.layers, max_len=args.max_len).eval()
    batch = tokenize_batch(SENTENCES, vocab, args.max_len)
    with torch.no_grad():
        emb = F.normalize(model(**batch), dim=-1)
    sims = emb @ emb.T
    for i, s in enumerate(SENTENCES):
        j = sims[i].masked_fill(torch.arange(len(SENTENCES)) == i, -1)
        log.info("%-30s nearest: %s", s, SENTENCES[int(j.argmax())])


if __name__ == "__main__":
    main()
