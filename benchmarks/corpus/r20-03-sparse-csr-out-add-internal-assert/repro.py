import torch

a = torch.ones((2, 2))
b = torch.ones((2, 2))

out = torch.sparse_csr_tensor(
    torch.tensor([0, 1, 2]),
    torch.tensor([0, 1]),
    torch.zeros(2),
    size=(2, 2),
    check_invariants=True,
)

torch.add(a, b, out=out)
