# Quoted from https://github.com/pytorch/pytorch/issues/181534
# ("CTCLoss backward is inconsistent with its forward derivative with respect to the documented
#  log_probs input.", beanduan22, 2026-04-27).
# Unchanged except these header comments; runs on CPU as posted.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(123)

T, N, C = 3, 1, 3  # time, batch, classes incl. blank
log_probs = F.log_softmax(torch.randn(T, N, C), dim=-1).double()
log_probs.requires_grad_(True)

targets = torch.tensor([[1]])
input_lens = torch.tensor([T])
target_lens = torch.tensor([1])

loss_fn = nn.CTCLoss(blank=0)

def f(x):
    return loss_fn(x, targets, input_lens, target_lens)

print(torch.autograd.gradcheck(f, (log_probs,), raise_exception=True))
