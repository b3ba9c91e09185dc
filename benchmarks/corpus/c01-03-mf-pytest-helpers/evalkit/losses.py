import torch
import torch.nn.functional as F


def label_smoothing_loss(logits, target, smoothing=0.1):
    """Cross-entropy against smoothed one-hot targets (class-index ``target``)."""
    n_classes = logits.shape[-1]
    with torch.no_grad():
        soft = torch.full_like(logits, smoothing / (n_classes - 1))
        soft.scatter_(-1, target.long().unsqueeze(-1), 1.0 - smoothing)
    return torch.mean(torch.sum(-soft * F.log_softmax(logits, dim=-1), dim=-1))


def masked_token_loss(logits, target, mask):
    """Mean cross-entropy over the positions where ``mask`` is true."""
    flat_logits = logits.reshape(-1, logits.shape[-1])
    flat_target = target.reshape(-1)
    losses = F.cross_entropy(flat_logits, flat_target, reduction="none")
    flat_mask = mask.reshape(-1).to(losses.dtype)
    return (losses * flat_mask).sum() / flat_mask.sum().clamp(min=1)
