from torch.utils.data import default_collate

default_collate([])
