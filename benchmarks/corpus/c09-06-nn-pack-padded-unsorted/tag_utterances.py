"""Intent + slot tagging for the support chatbot: a BiGRU encoder over variable-length utterances."""
import logging
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

log = logging.getLogger("tagger")


@dataclass
class TaggerConfig:
    vocab: int = 200
    dim: int = 48
    hidden: int = 32
    n_intents: int = 5
    n_slots: int = 9
    dropout: float = 0.1


class PackedBiGRU(nn.Module):
    """A bidirectional GRU that skips the padding (so the backward direction starts at the real last token)."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.rnn = nn.GRU(dim, hidden, batch_first=True, bidirectional=True)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True)
        out, last = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        return out, torch.cat([last[0], last[1]], dim=-1)


class UtteranceEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim, padding_idx=0)
        self.drop = nn.Dropout(cfg.dropout)
        self.rnn = PackedBiGRU(cfg.dim, cfg.hidden)

    def forward(self, tokens, lengths):
        return self.rnn(self.drop(self.embed(tokens)), lengths)


class IntentSlotTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = UtteranceEncoder(cfg)
        self.intent = nn.Linear(2 * cfg.hidden, cfg.n_intents)
        self.slots = nn.Linear(2 * cfg.hidden, cfg.n_slots)

    def forward(self, tokens, lengths):
        per_token, summary = self.encoder(tokens, lengths)
        return self.intent(summary), self.slots(per_token)


def make_batch(utterances):
    lengths = torch.tensor([len(u) for u in utterances])
    tokens = torch.zeros(len(utterances), int(lengths.max()), dtype=torch.long)
    for i, u in enumerate(utterances):
        tokens[i, : len(u)] = torch.tensor(u)
    return tokens, lengths


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    torch.manual_seed(0)
    cfg = TaggerConfig()
    model = IntentSlotTagger(cfg)
    # a batch in the order the annotators exported it
    utterances = [[12, 7, 88], [5, 31, 31, 140, 9, 2], [44, 17], [61, 3, 3, 190]]
    intents = torch.tensor([1, 0, 3, 2])
    tokens, lengths = make_batch(utterances)
    slots = torch.randint(0, cfg.n_slots, tokens.shape).masked_fill(tokens == 0, -100)
    intent_logits, slot_logits = model(tokens, lengths)
    loss = F.cross_entropy(intent_logits, intents) + F.cross_entropy(slot_logits.transpose(1, 2), slots)
    loss.backward()
    log.info("batch of %d utterances, loss %.4f", len(utterances), loss.item())


if __name__ == "__main__":
    main()
