import torch

lstm = torch.nn.LSTM(4, 3, batch_first=True)
dim1_x = torch.export.Dim("dim1_x", min=6, max=100)
torch.export.export(lstm, (torch.randn(1, 10, 4),), dynamic_shapes=({1: dim1_x},))
