"""The one place reportkit imports picire from.

picire 21.8 (its newest release) runs ``import pkg_resources`` in ``picire/cli.py``
at import time, only to compute ``__version__`` via
``pkg_resources.get_distribution('picire').version``.  setuptools >= 82 no longer
ships ``pkg_resources``, so a plain ``import picire`` fails in a fresh environment.

If the real ``pkg_resources`` is importable it is used untouched.  Otherwise a
minimal, honest stand-in (``get_distribution(name).version`` backed by
:mod:`importlib.metadata`, plus ``DistributionNotFound``) is placed in
``sys.modules`` only for the duration of the import and removed afterwards, so no
other code is fooled into believing ``pkg_resources`` exists.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import sys
import types
import warnings

__all__ = [
    "ConfigCache",
    "DD",
    "Outcome",
    "ZellerSplit",
    "backward",
    "forward",
    "picire",
    "skip",
]

_STAND_IN_MARKER = "__reportkit_stand_in__"


def _make_stand_in() -> types.ModuleType:
    """A module offering just the part of pkg_resources that picire uses."""
    module = types.ModuleType(
        "pkg_resources",
        "reportkit stand-in for pkg_resources (only get_distribution(name).version), "
        "installed while picire is imported.",
    )

    class DistributionNotFound(Exception):
        """Raised when a distribution is not installed."""

    class _Distribution:
        def __init__(self, project_name: str, version: str) -> None:
            self.project_name = project_name
            self.version = version

        def __repr__(self) -> str:
            return f"{self.project_name} {self.version}"

    def get_distribution(name: str) -> _Distribution:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError as exc:
            raise DistributionNotFound(name) from exc
        return _Distribution(name, version)

    DistributionNotFound.__module__ = "pkg_resources"
    module.DistributionNotFound = DistributionNotFound  # type: ignore[attr-defined]
    module.get_distribution = get_distribution  # type: ignore[attr-defined]
    setattr(module, _STAND_IN_MARKER, True)
    return module


def _real_pkg_resources_available() -> bool:
    if "pkg_resources" in sys.modules:
        return sys.modules["pkg_resources"] is not None
    try:
        return importlib.util.find_spec("pkg_resources") is not None
    except (ImportError, ValueError):
        return False


def _import_with_stand_in() -> types.ModuleType:
    stand_in = _make_stand_in()
    missing = object()
    previous = sys.modules.get("pkg_resources", missing)  # may be None: a deliberate block
    sys.modules["pkg_resources"] = stand_in
    try:
        return importlib.import_module("picire")
    finally:
        if sys.modules.get("pkg_resources") is stand_in:
            if previous is missing:
                del sys.modules["pkg_resources"]
            else:
                sys.modules["pkg_resources"] = previous  # type: ignore[assignment]


def _import_picire() -> types.ModuleType:
    if "picire" in sys.modules:
        return sys.modules["picire"]
    if _real_pkg_resources_available():
        try:
            with warnings.catch_warnings():
                # setuptools >= 67 warns that pkg_resources is deprecated; that is picire's business.
                warnings.filterwarnings("ignore", message=".*pkg_resources.*")
                warnings.filterwarnings("ignore", category=DeprecationWarning)
                return importlib.import_module("picire")
        except ImportError as exc:
            if exc.name not in (None, "pkg_resources") and "pkg_resources" not in str(exc):
                raise
            # A pkg_resources that is found but cannot be imported: fall back to the stand-in.
    return _import_with_stand_in()


picire = _import_picire()

from picire import DD, Outcome  # noqa: E402
from picire.config_iterators import backward, forward, skip  # noqa: E402
from picire.config_splitters import ZellerSplit  # noqa: E402
from picire.outcome_cache import ConfigCache  # noqa: E402
