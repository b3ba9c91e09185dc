import torch


def channel_stats(images, eps=1e-6):
    mean = images.mean(dim=(0, 2, 3))
    std = images.std(dim=(0, 2, 3)).clamp_min(eps)
    return mean, std


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, img):
        return (img - self.mean) / self.std


images = torch.rand(4, 3, 16, 16)
Normalize(*channel_stats(images))(images[0])
