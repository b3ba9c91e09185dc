from torch import nn


class StressNet(nn.Module):
    def __init__(self, channels, widths, n_classes):
        super().__init__()
        layers, c = [], channels
        for w in widths:
            layers += [nn.Conv2d(c, w, 3, padding=1), nn.BatchNorm2d(w), nn.ReLU(), nn.MaxPool2d(2)]
            c = w
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, n_classes))

    def forward(self, x):
        return self.head(self.features(x))
