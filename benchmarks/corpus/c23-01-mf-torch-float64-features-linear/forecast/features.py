import logging

import numpy as np
import torch

from forecast.data import SalesRecord, by_store

log = logging.getLogger(__name__)


class FeatureBuilder:
    """Lagged units, price, promotion flag and day-of-week encoding for each (store, day)."""

    def __init__(self, lags: tuple[int, ...] = (1, 2, 7)):
        self.lags = lags
        self.mean: np.ndarray | None = None
        self.std: np.ndarray | None = None

    @property
    def n_features(self) -> int:
        return len(self.lags) + 4

    def _rows(self, records: list[SalesRecord]):
        rows, targets = [], []
        for recs in by_store(records).values():
            for i in range(max(self.lags), len(recs)):
                rec = recs[i]
                lagged = [recs[i - lag].units for lag in self.lags]
                dow = 2 * np.pi * (rec.day % 7) / 7
                rows.append(lagged + [rec.price, float(rec.promo), np.sin(dow), np.cos(dow)])
                targets.append(rec.units)
        return rows, targets

    def fit_transform(self, records: list[SalesRecord]) -> tuple[torch.Tensor, torch.Tensor]:
        rows, targets = self._rows(records)
        matrix = np.array(rows, dtype=np.float64)
        self.mean = matrix.mean(axis=0)
        self.std = matrix.std(axis=0) + 1e-6
        log.info("built %d feature rows of width %d", *matrix.shape)
        features = torch.from_numpy((matrix - self.mean) / self.std)
        return features, torch.tensor(targets, dtype=torch.float32).unsqueeze(1)
