import torch; 
p = torch.tensor([0.2, 0.9]) 
n = int(2000e4);
x = torch.rand(n);
torch.quantile(x, p)
