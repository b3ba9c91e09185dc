"""Building blocks: a conv stage and the classifier head."""
from torch import nn


class ConvStage(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3, stride=stride, padding=1, bias=False)
        self.norm = nn.BatchNorm2d(c_out)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class Head(nn.Module):
    def __init__(self, in_features, hidden, num_classes, dropout):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Flatten(),
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, num_classes),
        )

    def forward(self, x):
        return self.mlp(x)
