"""Store demand forecasting: synthetic sales history, lag features, an MLP regressor."""
from forecast.data import SalesRecord, load_history
from forecast.features import FeatureBuilder
from forecast.model import DemandRegressor
from forecast.training import Trainer

__all__ = ["SalesRecord", "load_history", "FeatureBuilder", "DemandRegressor", "Trainer"]
