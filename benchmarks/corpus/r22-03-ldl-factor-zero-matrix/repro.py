import torch
ld,pivot=torch.linalg.ldl_factor(torch.zeros(5,5)) 
