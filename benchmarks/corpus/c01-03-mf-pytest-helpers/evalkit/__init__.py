from .losses import label_smoothing_loss, masked_token_loss

__all__ = ["label_smoothing_loss", "masked_token_loss"]
