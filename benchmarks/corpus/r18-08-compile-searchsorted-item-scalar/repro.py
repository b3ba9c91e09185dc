import torch

torch._dynamo.config.capture_scalar_outputs = True

def test_demo(sorted_seq: torch.Tensor):
    return torch.searchsorted(sorted_seq, sorted_seq[-1].item() // 3)

sorted_seq = torch.tensor([0, 1, 3, 7])
print(torch.compile(test_demo)(sorted_seq))
