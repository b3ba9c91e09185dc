import torch
from torch import nn


class RelativePositionBias(nn.Module):
    def __init__(self, heads, max_distance, bucket_width):
        super().__init__()
        self.max_distance = max_distance
        self.bucket_width = bucket_width
        self.table = nn.Embedding(2 * max_distance // bucket_width + 1, heads)

    def forward(self, q_len, k_len):
        rel = torch.arange(k_len)[None, :] - torch.arange(q_len)[:, None]
        buckets = (rel.clamp(-self.max_distance, self.max_distance) + self.max_distance) / self.bucket_width
        return self.table(buckets).permute(2, 0, 1)  # (heads, q, k)


RelativePositionBias(4, 32, 4)(8, 8)
