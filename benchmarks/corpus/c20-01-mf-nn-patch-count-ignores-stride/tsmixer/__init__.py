"""A small patch-mixer forecaster (MLP-Mixer over patches of a multivariate series)."""

from tsmixer.config import MixerConfig
from tsmixer.layers import ChannelMixing, MixerBlock, TokenMixing
from tsmixer.model import PatchMixer
from tsmixer.patching import Patcher

__all__ = ["ChannelMixing", "MixerBlock", "MixerConfig", "PatchMixer", "Patcher", "TokenMixing"]
