"""Environment probe run *in the target interpreter* by ``reportkit bundle``.

Usage (run by file path; the target interpreter does not need reportkit installed):

    python /path/to/reportkit/run/_env_probe.py OUT_JSON SCRIPT_DIR [--no-collect-env]

Writes a JSON object to OUT_JSON, rewritten after every stage so that a stage that hangs or
crashes (``import torch`` on a broken install, ``collect_env`` waiting on a tool) still leaves the
earlier stages' results; ``stage`` names the stage in progress, ``done`` is true at the end.
Stages: ``basics`` (python, OS), ``packages`` (versions and locations, found *without importing*:
torch_spyre, torch_sendnn, ...), ``torch`` (``import torch``: version, git_version, CUDA / other
accelerators), ``collect_env`` (``torch.utils.collect_env.get_pretty_env_info()``), ``spyre_config``
(torch_spyre installed: ``torch_spyre/_inductor/config.py`` loaded by path twice, with and without the
environment variables it reads, to tell which settings are not at their defaults).

``SCRIPT_DIR`` replaces the probe's own directory as ``sys.path[0]``, so packages are looked up
the way the script sees them: what the project holds runs in the probe, which reportkit runs sandboxed as a run
(started isolated, ``-I -S``, with the loader's variables set aside, it applies ``REPORTKIT_CONFINE``, then starts
again as the script would). Standard library only, compatible with Python 3.8+.
"""

import importlib.util
import json
import os
import platform
import re
import sys
import traceback

try:
    import importlib.metadata as _metadata
except ImportError:  # Python < 3.8
    _metadata = None

PACKAGES = ("torch", "numpy", "triton", "sympy", "networkx", "torchvision", "torchaudio", "transformers",
            "accelerate", "torch_spyre", "torch-spyre", "torch_sendnn", "torch-sendnn", "ibm-fms", "vllm",
            "vllm-spyre", "onnx", "optree", "pytorch-triton", "intel-extension-for-pytorch")
# (import name, distribution names) of packages whose install location matters
LOCATED = (("torch", ("torch",)), ("torch_spyre", ("torch_spyre", "torch-spyre")),
           ("torch_sendnn", ("torch_sendnn", "torch-sendnn")))


class _Out:
    def __init__(self, path):
        self.path = path
        self.data = {"stage": None, "done": False, "errors": {}}

    def stage(self, name):
        self.data["stage"] = name
        self.flush()

    def flush(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.data, fh, default=repr)
        os.replace(tmp, self.path)


def _os_release():
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        try:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("PRETTY_NAME="):
                        return line.split("=", 1)[1].strip().strip('"')
        except OSError:
            continue
    return None


def basics():
    return {
        "python_version": sys.version.split()[0],
        "python_full": sys.version.replace("\n", " "),
        "implementation": platform.python_implementation(),
        "executable": sys.executable,
        "prefix": sys.prefix,
        "platform": platform.platform(),
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "os": _os_release() or platform.platform(),
        "libc": " ".join(platform.libc_ver()).strip() or None,
        "cpu_count": os.cpu_count(),
    }


def _dist_version(names):
    if _metadata is None:
        return None
    for name in names:
        try:
            return _metadata.version(name)
        except Exception:
            continue
    return None


def _direct_url(names):
    if _metadata is None:
        return {}
    for name in names:
        try:
            text = _metadata.distribution(name).read_text("direct_url.json")
        except Exception:
            continue
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        return data if isinstance(data, dict) else {}
    return {}


def _dist_package_dir(module, names):
    """The directory the installed distribution holds ``module``'s package in, where it exists (an editable install
    has none there): to tell a module of the same name that comes first on the path (a project's ``torch.py``)."""
    if _metadata is None:
        return None
    for name in names:
        try:
            path = str(_metadata.distribution(name).locate_file(module))
        except Exception:
            continue
        if os.path.isfile(os.path.join(path, "__init__.py")):
            return os.path.realpath(path)
    return None


def _static_version(directory):
    import re

    for name in ("version.py", "_version.py"):
        try:
            with open(os.path.join(directory, name), encoding="utf-8") as fh:
                m = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", fh.read(), re.MULTILINE)
        except OSError:
            continue
        if m:
            return m.group(1)
    return None


def locate(module, dists):
    """Where ``module`` would be imported from, without importing it."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError) as exc:
        return {"installed": False, "error": f"{type(exc).__name__}: {exc}"}
    if spec is None:
        return {"installed": False}
    locations = list(spec.submodule_search_locations or [])
    origin = spec.origin if spec.origin not in (None, "namespace", "built-in", "frozen") else None
    location = locations[0] if locations else (os.path.dirname(origin) if origin else None)
    direct = _direct_url(dists)
    installed = _dist_package_dir(module, dists)
    dir_info = direct.get("dir_info") if isinstance(direct.get("dir_info"), dict) else {}
    vcs_info = direct.get("vcs_info") if isinstance(direct.get("vcs_info"), dict) else {}
    return {
        "installed": True,
        "location": location,
        "version": (_static_version(location) if location else None) or _dist_version(dists),
        "dist_version": _dist_version(dists),
        "editable": bool(dir_info.get("editable")),
        "source_url": direct.get("url"),
        "vcs_commit": vcs_info.get("commit_id"),
        "origin": origin,
        # the distribution's own package, where the import finds another module first
        "shadows": installed if installed and location and os.path.realpath(location) != installed else None,
    }


def packages():
    versions = {}
    for name in PACKAGES:
        version = _dist_version((name,))
        if version:
            versions[name] = version
    return {"versions": versions, "located": {m: locate(m, d) for m, d in LOCATED}}


def _accelerators(torch):
    acc = {}
    cuda = getattr(torch, "cuda", None)
    if cuda is not None:
        acc["cuda_available"] = bool(cuda.is_available())
        if acc["cuda_available"]:
            acc["cuda_devices"] = [cuda.get_device_name(i) for i in range(cuda.device_count())]
    mps = getattr(getattr(torch, "backends", None), "mps", None)
    if mps is not None and hasattr(mps, "is_available"):
        acc["mps_available"] = bool(mps.is_available())
    xpu = getattr(torch, "xpu", None)
    if xpu is not None and hasattr(xpu, "is_available"):
        acc["xpu_available"] = bool(xpu.is_available())
    accelerator = getattr(torch, "accelerator", None)
    if accelerator is not None and hasattr(accelerator, "current_accelerator"):
        current = accelerator.current_accelerator()
        acc["current_accelerator"] = str(current) if current is not None else None
    get_name = getattr(getattr(torch, "_C", None), "_get_privateuse1_backend_name", None)
    if get_name is not None:
        acc["privateuse1_backend"] = get_name()
        device_mod = getattr(torch, acc["privateuse1_backend"], None)
        if device_mod is not None and hasattr(device_mod, "device_count"):
            acc["privateuse1_device_count"] = int(device_mod.device_count())
    return acc


def torch_info():
    import torch

    version = getattr(torch, "version", None)
    info = {
        "version": getattr(torch, "__version__", None),
        "git_version": getattr(version, "git_version", None),
        "cuda": getattr(version, "cuda", None),
        "hip": getattr(version, "hip", None),
        "debug": getattr(version, "debug", None),
        "location": os.path.dirname(os.path.abspath(torch.__file__)),
    }
    try:
        info.update(_accelerators(torch))
    except Exception as exc:  # a broken device runtime must not hide the torch version
        info["accelerator_error"] = f"{type(exc).__name__}: {exc}"
    return info


def collect_env():
    from torch.utils import collect_env as ce

    return ce.get_pretty_env_info()


# torch_spyre/_inductor/config.py (a torch config module, install_config_module) reads its settings from the
# environment at import: the names it reads, found in its source
_ENV_READ = re.compile(r"""(?:getenv|environ\.get|_get_env_\w*|_env_\w*)\(\s*["']([A-Z][A-Z0-9_]*)["']"""
                       r"""|environ\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\]""")
_PLAIN = (bool, int, float, str, type(None))


def _config_values(path, name):
    """The settings of the config module at ``path``, loaded by path under ``name`` (not torch_spyre's)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    getter = getattr(module, "get_config_copy", None)
    values = getter() if callable(getter) else {k: v for k, v in vars(module).items() if not k.startswith("_")}
    return {k: v for k, v in values.items() if isinstance(v, _PLAIN) or isinstance(v, (list, tuple))}


def spyre_config(location):
    """Non-default torch_spyre._inductor.config values and the environment variables that set them."""
    path = os.path.join(location, "_inductor", "config.py")
    with open(path, encoding="utf-8") as fh:
        names = sorted({a or b for a, b in _ENV_READ.findall(fh.read())})
    current = _config_values(path, "_reportkit_spyre_config")
    saved = {n: os.environ.pop(n) for n in names if n in os.environ}
    try:
        default = _config_values(path, "_reportkit_spyre_config_default")
    finally:
        os.environ.update(saved)
    non_default = {k: {"value": repr(v)[:200], "default": repr(default[k])[:200]}
                   for k, v in current.items() if k in default and v != default[k]}
    return {"file": path, "settings": len(current), "env_read": {n: os.environ.get(n) for n in names},
            "non_default": non_default}


def _run(out, name, fn):
    out.stage(name)
    try:
        out.data[name] = fn()
        return True
    except BaseException as exc:  # noqa: BLE001 - recorded; the probe continues with other stages
        out.data["errors"][name] = f"{type(exc).__name__}: {exc}"
        out.data["errors"][name + "_traceback"] = traceback.format_exc()[-4000:]
        return False
    finally:
        out.flush()


def _confine():
    """Pass the gate (under bubblewrap) and apply the confinement reportkit asks for (``REPORTKIT_CONFINE``, as a run
    does: ``_confine.py``) before anything of the project is imported; the probe dies with reportkit."""
    gate = "REPORTKIT_GATE_FD" in os.environ
    value = os.environ.pop("REPORTKIT_CONFINE", None)
    if not value and not gate:
        return
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("_reportkit_confine", os.path.join(here, "_confine.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.pass_gate()
    if not value:
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass
    config = json.loads(value)
    config.pop("parent", None)  # (a run's keeper: reportkit kills the probe itself)
    module.apply(config)


def _start_again(argv):
    """Once confined, start again as the script would start: with the loader's variables reportkit set aside
    (``REPORTKIT_START_ENV``) and without ``-I -S`` (the user's ``PYTHONPATH``, ``site``, ``.pth`` files and a
    ``sitecustomize`` act in a confined process)."""
    deferred = os.environ.pop("REPORTKIT_START_ENV", None)
    if deferred is None:
        return
    env = dict(os.environ)
    env.update(json.loads(deferred))
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + list(argv), env)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: _env_probe.py OUT_JSON SCRIPT_DIR [--no-collect-env]\n")
        return 2
    _confine()
    _start_again(argv)
    out = _Out(argv[0])
    sys.path[0] = os.path.abspath(argv[1])
    _run(out, "basics", basics)
    _run(out, "packages", packages)
    torch_found = out.data.get("packages", {}).get("located", {}).get("torch", {}).get("installed")
    torch_ok = torch_found and _run(out, "torch", torch_info)
    if torch_ok and "--no-collect-env" not in argv[2:]:
        _run(out, "collect_env", collect_env)
    spyre = out.data.get("packages", {}).get("located", {}).get("torch_spyre", {})
    if torch_ok and spyre.get("installed") and spyre.get("location"):
        _run(out, "spyre_config", lambda: spyre_config(spyre["location"]))
    out.data["stage"] = None
    out.data["done"] = True
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
