from .vit import VisionTransformer


def build_vit(cfg):
    return VisionTransformer(
        image_size=cfg["image_size"], patch=cfg["patch"], embed_dim=cfg["embed_dim"],
        depth=cfg["depth"], heads=cfg["heads"], norm_dim=cfg["norm_dim"], classes=cfg["classes"])


__all__ = ["VisionTransformer", "build_vit"]
