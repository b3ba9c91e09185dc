"""One training step of a small ResNet on random images (smoke test of a new stage layout)."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def conv3x3(cin, cout, stride=1):
    return nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = conv3x3(cin, cout, stride)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = conv3x3(cout, cout)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = None
        if cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False),
                                          nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x if self.shortcut is None else self.shortcut(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + identity)


class Stage(nn.Module):
    def __init__(self, cin, cout, blocks, stride):
        super().__init__()
        layers = [BasicBlock(cin, cout, stride)]
        layers += [BasicBlock(cout, cout) for _ in range(blocks - 1)]
        self.blocks = nn.Sequential(*layers)

    def forward(self, x):
        return self.blocks(x)


class ResNet(nn.Module):
    # (channels, blocks, stride) per stage; stage 2 keeps the width but halves the resolution
    LAYOUT = ((16, 2, 1), (16, 2, 2), (32, 2, 2))

    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(conv3x3(3, 16), nn.BatchNorm2d(16), nn.ReLU())
        stages, cin = [], 16
        for cout, blocks, stride in self.LAYOUT:
            stages.append(Stage(cin, cout, blocks, stride))
            cin = cout
        self.stages = nn.Sequential(*stages)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.stages(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def main():
    model = ResNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    images, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
    loss = F.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
