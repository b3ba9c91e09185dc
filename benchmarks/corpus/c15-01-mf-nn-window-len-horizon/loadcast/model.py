from torch import nn


class WindowMLP(nn.Module):
    """A small MLP from a window of readings to the next `horizon` readings."""

    def __init__(self, window, horizon, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(window, hidden),
            nn.GELU(),
            nn.Linear(hidden, hidden),
            nn.GELU(),
            nn.Linear(hidden, horizon),
        )

    def forward(self, x):
        return self.net(x)
