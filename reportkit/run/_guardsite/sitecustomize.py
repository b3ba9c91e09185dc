"""Installs the fallback sandbox's guard in every Python a run starts (standard library only, 3.8+).

reportkit puts this directory first on ``PYTHONPATH`` for runs without bubblewrap
(:mod:`reportkit.run.sandbox`), with the guard's configuration in ``REPORTKIT_GUARD``. A Python the script
starts — a ``multiprocessing`` spawn or forkserver worker (``DataLoader(..., multiprocessing_context="spawn")``,
``torch.multiprocessing.spawn``), ``subprocess.run([sys.executable, ...])`` — imports it at start-up and
installs the same audit hook as the run's bootstrap (``_boot._install_guard``). The run's own process is
left to its bootstrap (it still has ``REPORTKIT_CONFINE``). Then the ``sitecustomize`` this one shadows, if
any, runs as it would have, and this directory leaves ``sys.path``.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _install():
    if "REPORTKIT_GUARD" not in os.environ or "REPORTKIT_CONFINE" in os.environ:
        return
    import importlib.util

    path = os.path.join(os.path.dirname(_HERE), "_boot.py")
    spec = importlib.util.spec_from_file_location("_reportkit_boot", path)
    boot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(boot)
    config = boot._guard_config()
    if config:
        boot._install_guard(config)


def _chain():
    """Run the ``sitecustomize`` module this one shadows (the interpreter's or the environment's)."""
    import importlib.machinery
    import importlib.util

    rest = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


try:
    _install()
finally:
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    _chain()
