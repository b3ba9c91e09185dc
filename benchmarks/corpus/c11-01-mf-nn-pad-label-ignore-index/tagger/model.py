from torch import nn


class QueryTagger(nn.Module):
    def __init__(self, vocab_size, n_tags, emb_dim=16, hidden=24):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, n_tags)

    def forward(self, words):
        h, _ = self.rnn(self.embed(words))
        return self.head(h)
