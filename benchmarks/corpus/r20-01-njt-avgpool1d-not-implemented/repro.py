import torch
print(torch.__version__)

def converted(a):
  sub_tensors = [a[i] for i in range(a.shape[0])]
  return torch.nested.nested_tensor(sub_tensors, layout=torch.jagged)

tensor = converted(torch.rand([1, 1, 7], dtype=torch.float32))
torch.nn.AvgPool1d(3,2)(tensor)
