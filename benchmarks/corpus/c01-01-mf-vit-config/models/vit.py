import torch
from torch import nn

from .layers import EncoderBlock, PatchEmbed, init_weights, sincos_positions


class VisionTransformer(nn.Module):
    def __init__(self, image_size, patch, embed_dim, depth, heads, norm_dim, classes):
        super().__init__()
        self.patch_embed = PatchEmbed(image_size, patch, embed_dim)
        n = self.patch_embed.num_patches + 1
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.register_buffer("pos", sincos_positions(n, embed_dim)[None], persistent=False)
        self.blocks = nn.ModuleList(EncoderBlock(embed_dim, heads, norm_dim) for _ in range(depth))
        self.norm = nn.LayerNorm(norm_dim)
        self.head = nn.Linear(embed_dim, classes)
        self.apply(init_weights)

    def forward(self, images):
        x = self.patch_embed(images)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x)[:, 0])
