import torch
from torch.nn.utils.rnn import pad_sequence

PAD_ID = 0  # word id 0 is reserved for padding


def make_queries(cfg, seed=0):
    """Stand-in for the labelled query log: (word ids, tag ids) per query, 2 to 6 words long."""
    g = torch.Generator().manual_seed(seed)
    queries = []
    for _ in range(cfg.n_queries):
        n = int(torch.randint(2, 7, (1,), generator=g))
        words = torch.randint(1, cfg.vocab_size, (n,), generator=g)
        tags = words % len(cfg.tags)  # a learnable toy rule
        queries.append((words, tags))
    return queries


def collate(batch):
    """Pad a batch of queries to its longest one; padded positions must not count in the loss."""
    words = pad_sequence([w for w, _ in batch], batch_first=True, padding_value=PAD_ID)
    tags = pad_sequence([t for _, t in batch], batch_first=True, padding_value=-1)
    return words, tags


def batches(queries, batch_size):
    for start in range(0, len(queries), batch_size):
        yield collate(queries[start:start + batch_size])
