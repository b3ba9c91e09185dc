"""A module built inside another one whose forward is one expression becomes that expression (issue 38 item 4)."""

from __future__ import annotations

import pytest

from reportkit.reduce import passes as P

INNER = '''import torch
from torch import nn


class PatchEmbed(nn.Module):
    def __init__(self, image_size, patch, dim, channels=3):
        super().__init__()
        self.proj = nn.Conv2d(channels, dim, kernel_size=patch, stride=patch)
        self.num_patches = (image_size // patch) ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class VisionTransformer(nn.Module):
    def __init__(self, image_size, patch, embed_dim, norm_dim):
        super().__init__()
        self.patch_embed = PatchEmbed(image_size, patch, embed_dim)
        n = self.patch_embed.num_patches + 1
        self.norm = nn.LayerNorm(norm_dim)

    def forward(self, images):
        x = self.patch_embed(images)
        return self.norm(x)


VisionTransformer(32, 8, 48, 64)(torch.randn(2, 3, 32, 32))
'''


def test_a_nested_module_becomes_its_expression():
    (candidate,) = P.nested_module_candidates(INNER)
    assert "class PatchEmbed" not in candidate
    assert "        self.proj = nn.Conv2d(3, embed_dim, kernel_size=patch, stride=patch)\n" \
           "        self.num_patches = (image_size // patch) ** 2\n" \
           "        n = self.num_patches + 1\n" in candidate
    assert "        x = self.proj(images).flatten(2).transpose(1, 2)\n" in candidate
    assert P.parses(candidate)


def test_a_config_s_fields_as_arguments():
    source = INNER.replace("PatchEmbed(image_size, patch, embed_dim)", "PatchEmbed(cfg.size, cfg.patch, dim=cfg.dim)")
    (candidate,) = P.nested_module_candidates(source)
    assert "        self.proj = nn.Conv2d(3, cfg.dim, kernel_size=cfg.patch, stride=cfg.patch)\n" \
           "        self.num_patches = (cfg.size // cfg.patch) ** 2\n" in candidate


def test_an_attribute_name_the_outer_module_uses_gets_a_prefix():
    source = INNER.replace("self.norm = nn.LayerNorm(norm_dim)", "self.norm = nn.LayerNorm(norm_dim)\n"
                           "        self.proj = nn.Linear(norm_dim, 2)").replace("return self.norm(x)",
                                                                              "return self.proj(self.norm(x))")
    (candidate,) = P.nested_module_candidates(source)
    assert "self.patch_embed_proj = nn.Conv2d(3, embed_dim" in candidate
    assert "x = self.patch_embed_proj(images).flatten(2)" in candidate and "self.proj(self.norm(x))" in candidate


@pytest.mark.parametrize("old, new", [
    ("        return self.proj(x).flatten(2).transpose(1, 2)",  # forward is not one expression
     "        y = self.proj(x)\n        return y.flatten(2)"),
    ("        self.num_patches = (image_size // patch) ** 2",  # __init__ computes a local
     "        k = image_size // patch\n        self.num_patches = k ** 2"),
    ("        n = self.patch_embed.num_patches + 1",  # the module itself is used as a value
     "        n = len(list(self.patch_embed.parameters()))"),
    ("        n = self.patch_embed.num_patches + 1",  # built twice
     "        n = PatchEmbed(image_size, patch, embed_dim)"),
    ("class PatchEmbed(nn.Module):", "class PatchEmbed:"),  # self.m(x) would run __call__
    ("        super().__init__()\n        self.patch_embed",  # a name of the module means another thing there
     "        super().__init__()\n        nn = None\n        self.patch_embed"),
    ("        return self.proj(x).flatten(2).transpose(1, 2)",  # an attribute nn.Module provides
     "        return self.proj(x).flatten(2) if self.training else x"),
    ("        self.patch_embed = PatchEmbed(image_size, patch, embed_dim)",  # an argument with effects
     "        self.patch_embed = PatchEmbed(image_size, patch, int(embed_dim))"),
])
def test_not_where_it_is_another_program(old, new):
    assert old in INNER
    assert P.nested_module_candidates(INNER.replace(old, new)) == []
