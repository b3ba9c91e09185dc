import torch

PAD = 0
input_ids = torch.tensor([[5, 7, PAD]])
pad_mask = (input_ids == PAD).float()  # made float for the masked mean pooling
scores = torch.zeros(1, 4, 3, 3)  # (batch, heads, query, key) attention scores
scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
