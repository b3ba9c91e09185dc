import numpy as np
import pytest


@pytest.fixture
def latencies():
    rng = np.random.default_rng(3)
    return np.round(rng.gamma(2.0, 15.0, size=40), 1)
