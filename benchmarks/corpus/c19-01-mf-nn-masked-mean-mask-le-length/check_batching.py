"""Batched sentence embeddings must equal the embeddings of the sentences encoded one by one.

    python check_batching.py [--limit N]
"""

import argparse
import logging

import torch

from sentpool import PoolConfig, SentenceEncoder, Vocab, collate, load_sentences

log = logging.getLogger("check_batching")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--verbose", action="store_true")
    return p.parse_args()


def build(cfg, texts):
    torch.manual_seed(cfg.seed)
    vocab = Vocab(cfg).fit(texts)
    model = SentenceEncoder(cfg).eval()
    log.info("vocab %d tokens, %d parameters", len(vocab.index), sum(p.numel() for p in model.parameters()))
    return vocab, model


def batched(model, vocab, texts, cfg):
    ids, lengths = collate([vocab.encode(t) for t in texts], cfg.pad_id)
    with torch.no_grad():
        return model(ids, lengths)


def one_by_one(model, vocab, texts):
    with torch.no_grad():
        return torch.stack([model.encode_one(vocab.encode(t)) for t in texts])


def main():
    args = parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING)
    cfg = PoolConfig()
    texts = load_sentences(args.limit)
    vocab, model = build(cfg, texts)
    got = batched(model, vocab, texts, cfg)
    want = one_by_one(model, vocab, texts)
    log.info("batch %s, norms %s", tuple(got.shape), got.norm(dim=1).tolist())
    torch.testing.assert_close(got, want)
    print(f"ok: {len(texts)} sentences batched = one by one")


if __name__ == "__main__":
    main()
