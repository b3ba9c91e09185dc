"""Fixtures shared by the suite: the element type of the device model, and a fixed seed per test."""

import pytest
import torch


@pytest.fixture
def half():
    return torch.float16


@pytest.fixture(autouse=True)
def seeded():
    torch.manual_seed(0)
    yield
