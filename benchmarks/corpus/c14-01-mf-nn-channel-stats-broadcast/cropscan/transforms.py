import torch

TRANSFORMS = {}


def register(name):
    def deco(cls):
        TRANSFORMS[name] = cls
        return cls
    return deco


@register("normalize")
class Normalize:
    def __init__(self, mean, std, **_):
        self.mean, self.std = mean, std

    def __call__(self, img):
        return (img - self.mean) / self.std


@register("hflip")
class RandomHFlip:
    def __init__(self, hflip_p=0.5, generator=None, **_):
        self.p, self.generator = hflip_p, generator

    def __call__(self, img):
        if torch.rand((), generator=self.generator) < self.p:
            return img.flip(-1)
        return img


def build_pipeline(names, **params):
    steps = [TRANSFORMS[name](**params) for name in names]

    def apply(img):
        for step in steps:
            img = step(img)
        return img
    return apply
