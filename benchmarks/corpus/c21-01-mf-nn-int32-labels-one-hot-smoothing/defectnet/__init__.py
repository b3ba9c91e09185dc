"""Defect-type classifier for the press line's vibration features."""

from defectnet.data import DEFECT_TYPES, make_loaders
from defectnet.engine import evaluate, fit
from defectnet.losses import LabelSmoothingLoss
from defectnet.model import DefectClassifier

__all__ = ["DEFECT_TYPES", "DefectClassifier", "LabelSmoothingLoss", "evaluate", "fit", "make_loaders"]
