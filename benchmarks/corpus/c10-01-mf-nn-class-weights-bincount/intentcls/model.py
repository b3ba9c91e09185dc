from torch import nn


class IntentClassifier(nn.Module):
    def __init__(self, n_features, n_intents, hidden=32, dropout=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.GELU(), nn.Dropout(dropout),
                                  nn.Linear(hidden, hidden), nn.GELU())
        self.out = nn.Linear(hidden, n_intents)

    def forward(self, x):
        return self.out(self.body(x))
