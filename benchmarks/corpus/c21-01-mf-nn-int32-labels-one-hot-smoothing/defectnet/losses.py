import torch
import torch.nn.functional as F
from torch import nn


class LabelSmoothingLoss(nn.Module):
    """Cross-entropy against smoothed one-hot targets (the inspectors disagree on burr vs. crack)."""

    def __init__(self, num_classes: int, smoothing: float = 0.1):
        super().__init__()
        self.num_classes = num_classes
        self.smoothing = smoothing

    def smooth_targets(self, target: torch.Tensor) -> torch.Tensor:
        one_hot = F.one_hot(target, num_classes=self.num_classes).float()
        return one_hot * (1.0 - self.smoothing) + self.smoothing / self.num_classes

    def forward(self, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        soft = self.smooth_targets(target)
        return -(soft * F.log_softmax(logits, dim=-1)).sum(-1).mean()
