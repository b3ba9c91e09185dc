from torch.utils.data import random_split
random_split(range(20), [0.05] * 20)
