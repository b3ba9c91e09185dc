import pytest

from payroll import RATES


@pytest.fixture
def rates():
    return dict(RATES)
