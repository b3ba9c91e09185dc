import torch
from torch.utils.data import DataLoader, Dataset


# --- the reporter's collate_fn (pytorch/pytorch#57429, verbatim) ---
def collate_fn(batch):
    batch = list(filter(lambda x: x is not None, batch))
    return torch.utils.data.dataloader.default_collate(batch)


# --- adaptation: the scenario the reporter describes ("I wrote a custom collect_fn to
# filter out bad samples. But in some batches, all samples are being removed so it
# returns an empty list"), with random tensors instead of the reporter's data ---
class SampleDataset(Dataset):
    def __init__(self, n=16):
        self.data = torch.randn(n, 3, 8, 8)
        self.labels = torch.randint(0, 10, (n,))
        self.bad = set(range(8, 12))  # samples that fail to load

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        if idx in self.bad:
            return None
        return self.data[idx], self.labels[idx]


loader = DataLoader(SampleDataset(), batch_size=4, shuffle=False, collate_fn=collate_fn)
for step, (images, labels) in enumerate(loader):
    print(step, images.shape, labels.tolist())
