import torch
torch.zeros(2, 2).to_sparse().addmm_(torch.ones(2, 2), torch.ones(2, 2))
