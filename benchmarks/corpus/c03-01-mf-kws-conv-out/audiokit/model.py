from torch import nn

from .shapes import conv_stack_out

CONV = (3, 2, 1)  # kernel, stride, padding of every conv layer


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        kernel, stride, padding = CONV
        self.conv = nn.Conv2d(cin, cout, kernel, stride=stride, padding=padding, bias=False)
        self.norm = nn.BatchNorm2d(cout)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class KeywordNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        chans = [1, *cfg.channels]
        self.features = nn.Sequential(*(ConvBlock(a, b) for a, b in zip(chans, chans[1:])))
        layers = [CONV] * len(cfg.channels)
        h, w = conv_stack_out(cfg.n_mels, layers), conv_stack_out(cfg.n_frames, layers)
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(chans[-1] * h * w, cfg.hidden),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(cfg.hidden, len(cfg.keywords)),
        )

    def forward(self, x):
        return self.classifier(self.features(x))
