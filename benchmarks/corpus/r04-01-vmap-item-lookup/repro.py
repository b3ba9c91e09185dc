import torch
from functorch import vmap

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

sum = torch.zeros([100, 10], dtype=torch.int32).to(device)
lookup = torch.randint(100, (20, 1000, 10)).to(device)
input_tensor = torch.randint(1000, (100, 20)).to(device)

def test_fun(sum, input_tensor):
  for j in range(20):
    for i in range(10):
      sum[i] += lookup[j, input_tensor[j].item(), i]
  return sum

# non-vectorized version
for i in range(100):
  test_fun(sum[i], input_tensor[i])

# vectorized version throws error
test_fun_vec = vmap(test_fun)
test_fun_vec(sum, input_tensor)
