"""Candidates on a Ray cluster: the :class:`~reportkit.run.executor.Executor` interface over Ray actors.

``reportkit minimize --executor ray [--ray-address ADDR] [--ray-resources spyre=1] -j N`` starts N
*slots*: one Ray actor each (``num_cpus=1`` plus the resources asked for, so Ray places them on the
hosts that have them), each holding

* the script's directory, unpacked once from a tar snapshot made exactly as :class:`Sandbox` copies it
  (same ignore list; the script alone with ``--isolate-file``). The snapshot goes into Ray's object
  store once (``ray.put``), named by its SHA-256;
* a :class:`~reportkit.run.executor.WarmExecutor` (the same preload as locally) or the cold runner, and a
  private compile cache (``TORCHINDUCTOR_CACHE_DIR`` / ``TRITON_CACHE_DIR`` point into the slot).

Per candidate only its source text goes out; a :class:`~reportkit.run.spec.RunResult` comes back and the
signature is computed **locally** (``signature_of`` normalizes paths relative to the result's own
``workdir``, so results of every host compare alike). The reducer's thread pool (``-j``) calls
:meth:`RayExecutor.run` from N threads; each call takes a free slot.

Admission: the environment probe (``_env_probe.py``) runs on every node (by its first slot) and its
key facts (Python, platform, package versions, torch version/git version/accelerators) are compared
with the local probe; a node that differs is excluded with a note, and so is a slot that does not
reproduce the original's failure. Failure handling: a slot whose actor died is dropped and its
candidate re-run on another slot (twice at most, then locally); :meth:`kill_active` kills the
candidates running on the hosts (each slot kills its own process groups), and a candidate whose answer
the reducer withdrew (:mod:`reportkit.cancel`) is killed on its host and gives no verdict. Connecting to
``--ray-address`` is bounded (:func:`connect_bounded`). Ray is imported only here, only when chosen.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reportkit.cancel import Withdrawn
from reportkit.cancel import current as current_withdraw
from reportkit.errors import UserError
from reportkit.io import remove_tree
from reportkit.run.executor import CACHE_ENV_VARS, ColdExecutor, Executor, WarmExecutor, discover_preload
from reportkit.run.runner import COPY_IGNORE, PROBE_FILE, Sandbox
from reportkit.run.spec import RunResult, RunSpec

RETRIES = 2  # a candidate whose slot died is re-run on another slot this many times, then locally
START_TIMEOUT = 600.0  # seconds for the slots to come up (placement, unpacking, warm server)
CONNECT_TIMEOUT = 60.0  # seconds for ray.init to reach a cluster (REPORTKIT_RAY_CONNECT_TIMEOUT overrides)
WITHDRAW_POLL = 0.1  # seconds between checks whether a running candidate's answer is still needed
INSTALL_HINT = "pip install 'reportkit[ray]'"
ACTIVE: RayExecutor | None = None  # the executor in use (the CLI's progress line shows its busy slots)


def import_ray():
    """``ray``, or one clear message when it is not installed."""
    try:
        import ray
    except ImportError:
        raise UserError(f"--executor ray needs Ray, which is not installed for {sys.executable}: "
                        f"{INSTALL_HINT}") from None
    return ray


def parse_resources(items: list[str] | None) -> dict[str, float]:
    """``["spyre=1", "GPU=0.5"]`` -> ``{"spyre": 1.0, "GPU": 0.5}`` (bad input: :class:`UserError`)."""
    out: dict[str, float] = {}
    for item in items or []:
        for part in item.split(","):
            if not part.strip():
                continue
            name, sep, value = part.partition("=")
            try:
                amount = float(value) if sep else 1.0
            except ValueError:
                amount = -1.0
            if not name.strip() or amount <= 0:
                raise UserError(f"--ray-resources: {part!r} is not NAME=AMOUNT with a positive amount (e.g. spyre=1)")
            out[name.strip()] = amount
    return out


# --------------------------------------------------------------------------- connecting


def connect_timeout() -> float:
    """:data:`CONNECT_TIMEOUT`, or ``$REPORTKIT_RAY_CONNECT_TIMEOUT`` seconds."""
    value = os.environ.get("REPORTKIT_RAY_CONNECT_TIMEOUT", "")
    try:
        return float(value) if value and float(value) > 0 else CONNECT_TIMEOUT
    except ValueError:
        raise UserError(f"REPORTKIT_RAY_CONNECT_TIMEOUT={value!r} is not a number of seconds") from None


def host_port(address: str) -> tuple[str, int] | None:
    """``HOST:PORT``, ``ray://HOST:PORT``, ``[IPv6]:PORT`` -> (host, port); None for ``auto`` and the like."""
    rest = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


_PROBE_OK = "REPORTKIT-RAY-CONNECTED"
# Run in a child interpreter: connect, disconnect, say so. What Ray's C++ core prints while it retries
# (warnings written straight to file descriptor 2) stays in the child's captured stderr.
_CONNECT_PROBE = f"""\
import sys
import ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
ray.shutdown()
print({_PROBE_OK!r})
"""


def probe_in_child(address: str, timeout: float) -> str | None:
    """Connect to ``address`` from a child interpreter within ``timeout`` s: None when it worked, else why
    not (one line: "timeout", or the child's last error line). Nothing of the child reaches our stderr."""
    from reportkit.run.runner import kill_tree

    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.Popen([sys.executable, "-c", _CONNECT_PROBE, address], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                            env=env, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=max(1.0, timeout))
    except subprocess.TimeoutExpired:
        kill_tree(proc)
        proc.communicate()
        return "timeout"
    if proc.returncode == 0 and _PROBE_OK in stdout:
        return None
    lines = [line.strip() for line in stderr.splitlines() if line.strip() and not line.startswith((" ", "["))]
    return (lines[-1] if lines else f"the probe exited with {proc.returncode}")[:300]


def connect_bounded(ray, address: str, timeout: float, probe=probe_in_child) -> None:
    """``ray.init(address=...)`` within ``timeout`` seconds, or one clear :class:`UserError`.

    Ray itself retries an unreachable cluster for minutes. A TCP connection to the address comes first
    (a closed port or an unknown host fails at once); then a child interpreter tries to connect
    (``probe``; a port that accepts but is not Ray is given up after ``timeout``, and what Ray's C++ core
    prints meanwhile stays in that child instead of reaching the terminal past reportkit's redaction);
    then ``ray.init`` runs here, in a daemon thread given up after the rest of ``timeout`` (the process
    then ends with the error; the thread with it)."""
    where = f"cannot connect to the Ray cluster at {address}"
    start = time.monotonic()
    target = host_port(address)
    if target is not None:
        try:
            socket.create_connection(target, timeout=timeout).close()
        except socket.gaierror as exc:
            raise UserError(f"{where}: unknown host {target[0]} ({exc.strerror or exc})") from None
        except ConnectionRefusedError:
            raise UserError(f"{where}: nothing listens on port {target[1]} of {target[0]} (connection refused); "
                            "is the Ray head running (ray start --head) and is this its GCS port "
                            "(default 6379)?") from None
        except (socket.timeout, TimeoutError):
            raise UserError(f"{where}: no answer within {timeout:g} s (host down or port filtered?)") from None
        except OSError as exc:
            raise UserError(f"{where}: {exc.strerror or exc}") from None
    silent = (f"{where}: it accepts connections but Ray did not answer within {timeout:g} s (not a Ray GCS port, "
              "or another Ray version?); REPORTKIT_RAY_CONNECT_TIMEOUT sets the wait")
    why = probe(address, timeout - (time.monotonic() - start))
    if why == "timeout":
        raise UserError(silent)
    if why is not None:
        raise UserError(f"{where}: {why}")
    outcome: dict[str, BaseException] = {}

    def init() -> None:
        try:
            ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        except BaseException as exc:  # noqa: BLE001 - reported by the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=init, name="reportkit-ray-connect", daemon=True)
    thread.start()
    thread.join(max(1.0, timeout - (time.monotonic() - start)))
    if thread.is_alive():
        raise UserError(silent)
    if "error" in outcome:
        raise UserError(f"{where}: {_first_line(outcome['error'])}") from None


# --------------------------------------------------------------------------- snapshot


def snapshot(script: Path, isolate_file: bool, root: Path | None = None) -> tuple[bytes, str]:
    """The script's directory as a Sandbox copies it (or the script alone; a pytest target: its rootdir
    ``root``), as a tar archive; and its SHA-256. Deterministic (sorted names, fixed mtimes), so the same
    directory gives the same hash."""
    base = root if root is not None else script.parent
    ignore = shutil.ignore_patterns(*COPY_IGNORE)
    buf = io.BytesIO()

    def add(tar: tarfile.TarFile, path: Path, name: str) -> None:
        info = tar.gettarinfo(str(path), arcname=name)
        info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
        if info.isfile():
            with open(path, "rb") as fh:
                tar.addfile(info, fh)
        else:
            tar.addfile(info)

    with tarfile.open(fileobj=buf, mode="w") as tar:
        if isolate_file:
            add(tar, script, script.name)
        else:
            for dirpath, dirnames, filenames in os.walk(base):
                skipped = ignore(dirpath, dirnames + filenames)
                dirnames[:] = sorted(d for d in dirnames if d not in skipped)
                for name in sorted(dirnames) + sorted(f for f in filenames if f not in skipped):
                    path = Path(dirpath) / name
                    add(tar, path, str(path.relative_to(base)))
    data = buf.getvalue()
    return data, hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- environment facts


def probe_environment(python: str, timeout: float = 300.0) -> dict:
    """Run ``_env_probe.py`` (no collect_env) in ``python``; the parsed JSON ({} if it failed)."""
    home = tempfile.mkdtemp(prefix="reportkit-probe-")
    try:
        out = os.path.join(home, "probe.json")
        subprocess.run([python, str(PROBE_FILE), out, home, "--no-collect-env"], capture_output=True,
                       timeout=timeout, cwd=home)
        with open(out, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError, subprocess.SubprocessError):
        return {}
    finally:
        remove_tree(home)


def key_facts(probe: dict) -> dict:
    """What must be equal on every host for candidates to be answered alike."""
    basics = probe.get("basics") or {}
    torch = probe.get("torch") or {}
    versions = (probe.get("packages") or {}).get("versions") or {}
    return {
        "python": basics.get("python_full") or basics.get("python_version"),
        "implementation": basics.get("implementation"),
        "system": basics.get("system"),
        "machine": basics.get("machine"),
        "packages": {k: v for k, v in sorted(versions.items()) if v},
        "torch": {k: torch.get(k) for k in ("version", "git_version", "cuda", "hip", "privateuse1_backend")},
    }


def differences(local: dict, remote: dict) -> list[str]:
    out = []
    for key in local:
        if local[key] != remote.get(key):
            if isinstance(local[key], dict):
                sub = sorted(k for k in set(local[key]) | set(remote.get(key) or {})
                             if local[key].get(k) != (remote.get(key) or {}).get(k))
                out.append(f"{key}: " + ", ".join(f"{k} {local[key].get(k)} here, {(remote.get(key) or {}).get(k)} there"
                                                  for k in sub[:4]))
            else:
                out.append(f"{key} {local[key]} here, {remote.get(key)} there")
    return out


# --------------------------------------------------------------------------- the slot (runs on a host)


class Slot:
    """One slot on a host (a Ray actor): the unpacked snapshot, an executor and a compile cache."""

    def __init__(self, archive: bytes, digest: str, script_name: str, isolate_file: bool, kind: str,
                 preload: list[str], pytest_root: bool = False) -> None:
        if hashlib.sha256(archive).hexdigest() != digest:
            raise RuntimeError("the script snapshot arrived damaged (SHA-256 differs)")
        self.home = Path(tempfile.mkdtemp(prefix=f"reportkit-ray-{digest[:12]}-"))
        src = self.home / "src"
        src.mkdir()
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(src, filter="data")
            else:  # Python < 3.11.4: the archive is ours (made by snapshot())
                tar.extractall(src)
        self.script = src / script_name  # a pytest target: relative to its rootdir, which ``src`` is
        self.root = src if pytest_root else None
        self.sandbox = Sandbox(self.script, isolate_file, self.root)
        self.cache = self.home / "compile-cache"
        self.executor: Executor = WarmExecutor(preload) if kind == "warm" else ColdExecutor()
        self.where = {"host": socket.gethostname(), "pid": os.getpid(), "slot": str(self.home)}

    def info(self) -> dict:
        import ray

        return {**self.where, "node": ray.get_runtime_context().get_node_id()}

    def probe(self, python: str) -> dict:
        return probe_environment(self._python(python))

    def _python(self, python: str) -> str:
        return python if os.access(python, os.X_OK) else sys.executable

    def _spec(self, spec: RunSpec) -> RunSpec:
        env = dict(spec.env)
        for var, sub in zip(CACHE_ENV_VARS, ("inductor", "triton")):
            if var in env and env[var] is not None:
                env[var] = str(self.cache / sub)  # the local private cache becomes this slot's
        return replace(spec, script=self.script, python=self._python(spec.python), env=env, root=self.root,
                       keep_workdir=False)

    def run(self, spec: RunSpec, source: str | None) -> RunResult:
        return self.executor.run(self._spec(spec), source, self.sandbox)

    def kill_active(self) -> None:
        self.executor.kill_active()

    def close(self) -> None:
        self.executor.close()
        self.sandbox.cleanup()
        remove_tree(self.home)


# --------------------------------------------------------------------------- the local side


@dataclass
class RayConfig:
    """How to reach the cluster and what a slot needs. Passed as ``MinimizeOptions.executor``."""

    address: str | None = None  # None: RAY_ADDRESS, else a local cluster started for this run
    resources: dict[str, float] = field(default_factory=dict)
    slots: int = 2
    inner: str = "warm"  # what runs a candidate inside a slot: "warm" or "cold"
    num_cpus: float = 1.0
    name: str = "ray"


@dataclass
class _Remote:
    actor: object
    index: int
    node: str = ""
    host: str = ""
    busy: bool = False
    dead: bool = False
    runs: int = 0


class RayExecutor(Executor):
    """Runs candidates on Ray slots (see the module docstring). Thread-safe; ``run`` blocks."""

    name = "ray"

    def __init__(self, config: RayConfig, spec: RunSpec, source: str) -> None:
        self.ray = import_ray()
        self.config = config
        self.notes: list[str] = []
        self.slots: list[_Remote] = []
        self.excluded: dict[str, str] = {}  # node/slot -> why
        self._free: queue.Queue[_Remote] = queue.Queue()
        self._lock = threading.Lock()
        self._in_flight: dict[int, _Remote] = {}
        self._ids = 0
        self._closed = False
        self.local = ColdExecutor()
        self.local_runs = 0
        self.withdrawn = 0  # candidates stopped on their host because the reducer no longer needed them
        self.started_ray = False
        self.ray_home: str | None = None  # the private cluster's session files: removed at shutdown
        self.preload = discover_preload(source, spec.script) if config.inner == "warm" else []
        self._connect()
        archive, self.digest = snapshot(spec.script, spec.isolate_file, spec.root)
        self._archive_ref = self.ray.put(archive)  # shipped once; every slot reads the same object
        self._start_slots(spec)
        global ACTIVE
        ACTIVE = self

    # ------------------------------------------------------------------ cluster
    def _connect(self) -> None:
        ray = self.ray
        if ray.is_initialized():
            return
        address = self.config.address or os.environ.get("RAY_ADDRESS") or None
        if address:
            connect_bounded(ray, address, connect_timeout())
            return
        # its session files in a 0700 dir of ours (Ray makes its own temp dir 0777: under $TMPDIR/ray, shared, it stayed
        # after the run and any user could add files to its logs while it ran), removed at shutdown
        self.ray_home = tempfile.mkdtemp(prefix="rk", dir=_ray_base())
        try:  # a private local cluster for this run (one CPU per slot)
            ray.init(num_cpus=max(1, int(self.config.slots * self.config.num_cpus + 0.999)),
                     resources=self.config.resources and {k: v * self.config.slots
                                                         for k, v in self.config.resources.items()},
                     include_dashboard=False, logging_level="ERROR", log_to_driver=False,
                     _node_ip_address="127.0.0.1",  # loopback only: nothing listens on the network
                     _temp_dir=os.path.join(self.ray_home, "r"))
            self.started_ray = True
        except (ConnectionError, RuntimeError, ValueError) as exc:
            remove_tree(self.ray_home)
            raise UserError(f"cannot start a local Ray cluster: {_first_line(exc)}") from None

    def _start_slots(self, spec: RunSpec) -> None:
        ray = self.ray
        actor_class = ray.remote(Slot).options(num_cpus=self.config.num_cpus, resources=self.config.resources or None,
                                               max_concurrency=4, max_restarts=0)
        name = str(spec.script.relative_to(spec.root)) if spec.root is not None else spec.script.name
        actors = [actor_class.remote(self._archive_ref, self.digest, name, spec.isolate_file,
                                     self.config.inner, self.preload, spec.root is not None)
                  for _ in range(self.config.slots)]
        pending = {a.info.remote(): (i, a) for i, a in enumerate(actors)}
        ready, not_ready = ray.wait(list(pending), num_returns=len(pending), timeout=START_TIMEOUT)
        for ref in not_ready:
            i, actor = pending[ref]
            self.excluded[f"slot {i}"] = (f"not placed within {START_TIMEOUT:g} s (resources "
                                          f"{self.config.resources or {'CPU': self.config.num_cpus}} available?)")
            ray.kill(actor)
        for ref in ready:
            i, actor = pending[ref]
            try:
                info = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - a slot that cannot start is excluded
                self.excluded[f"slot {i}"] = f"did not start: {str(exc).splitlines()[-1][:200]}"
                ray.kill(actor)
                continue
            self.slots.append(_Remote(actor=actor, index=i, node=info["node"], host=info["host"]))
        self.slots.sort(key=lambda s: s.index)

    # ------------------------------------------------------------------ admission
    def admit(self, spec: RunSpec, source: str, differs: Callable[[RunResult], str | None]) -> None:
        """Exclude nodes whose environment differs from the local one, and slots that do not reproduce
        the original's failure (``differs(result)``: how a slot's run of the original differs from the
        failure established locally; None: the same). Probes run once per node, the original once per slot,
        in parallel."""
        ray = self.ray
        local = key_facts(probe_environment(spec.python))
        first: dict[str, _Remote] = {}
        for slot in self.slots:
            first.setdefault(slot.node, slot)
        probes = {node: slot.actor.probe.remote(spec.python) for node, slot in first.items()}
        bad_nodes: dict[str, str] = {}
        for node, ref in probes.items():
            try:
                diff = differences(local, key_facts(ray.get(ref)))
            except Exception as exc:  # noqa: BLE001
                diff = [f"the probe failed: {str(exc).splitlines()[-1][:200]}"]
            if diff:
                bad_nodes[node] = "; ".join(diff)
        runs = {}
        for slot in self.slots:
            if slot.node in bad_nodes:
                host = f"host {slot.host} (node {slot.node[:8]})"
                self.excluded[host] = f"environment differs from the local one: {bad_nodes[slot.node]}"
                slot.dead = True
                continue
            runs[slot.actor.run.remote(_shipped(spec), source)] = slot
        for ref, slot in runs.items():
            try:
                why = differs(ray.get(ref))
            except Exception as exc:  # noqa: BLE001
                self.excluded[f"slot {slot.index} on {slot.host}"] = f"died running the original: {exc!s:.200}"
                slot.dead = True
                continue
            if why is not None:
                self.excluded[f"slot {slot.index} on {slot.host}"] = why
                slot.dead = True
        for slot in self.slots:
            if slot.dead:
                self._kill_actor(slot)
            else:
                self._free.put(slot)
        for what, why in self.excluded.items():
            self.notes.append(f"excluded {what}: {why}")

    @property
    def live(self) -> list[_Remote]:
        return [s for s in self.slots if not s.dead]

    def status(self) -> tuple[int, int]:
        """(busy slots, live slots), for progress lines."""
        with self._lock:
            live = self.live
            return sum(s.busy for s in live), len(live)

    # ------------------------------------------------------------------ running
    def _take(self) -> _Remote | None:
        while True:
            with self._lock:
                if not self.live or self._closed:
                    return None
            try:
                slot = self._free.get(timeout=1.0)
            except queue.Empty:
                continue
            if not slot.dead:
                with self._lock:
                    slot.busy = True
                return slot

    def _give_back(self, slot: _Remote) -> None:
        with self._lock:
            slot.busy = False
        if not slot.dead:
            self._free.put(slot)

    def run(self, spec: RunSpec, source: str | None, sandbox: Sandbox) -> RunResult:
        ray = self.ray
        from ray.exceptions import RayActorError, WorkerCrashedError

        withdraw = current_withdraw()
        for _attempt in range(RETRIES + 1):
            slot = self._take()
            if slot is None:
                break
            ref = slot.actor.run.remote(_shipped(spec), source)
            with self._lock:
                self._ids += 1
                rid = self._ids
                self._in_flight[rid] = slot
            try:
                if withdraw is not None and self._withdrawn(slot, ref, withdraw):
                    raise Withdrawn
                result = ray.get(ref)
                slot.runs += 1
                return result
            except (RayActorError, WorkerCrashedError) as exc:
                slot.dead = True
                self._note(f"slot {slot.index} on {slot.host} died ({type(exc).__name__}); its candidate was re-run "
                           "on another slot")
            finally:
                with self._lock:
                    self._in_flight.pop(rid, None)
                self._give_back(slot)
        with self._lock:
            self.local_runs += 1
        self._note("candidates that found no live slot ran locally (cold)")
        return self.local.run(spec, source, sandbox)

    def _withdrawn(self, slot: _Remote, ref, event: threading.Event) -> bool:
        """Wait for ``ref``; if ``event`` is set first (the reducer no longer needs the answer), kill the
        candidate's process tree on its host, wait for the slot to be free again and return True."""
        ray = self.ray
        while not ray.wait([ref], timeout=WITHDRAW_POLL)[0]:
            if event.is_set():
                break
        else:
            return False
        # The slot runs this one candidate: its kill_active kills exactly that run (again while the run
        # has not ended: a kill that came before the run's process started finds nothing to kill).
        while True:
            try:
                ray.get(slot.actor.kill_active.remote(), timeout=30)
            except Exception:  # noqa: BLE001 - a dead actor: run() below reports it
                pass
            if ray.wait([ref], timeout=1.0)[0]:
                break
        from ray.exceptions import RayActorError, WorkerCrashedError

        try:
            ray.get(ref)  # the killed run's result is dropped: it is no verdict
        except (RayActorError, WorkerCrashedError) as exc:
            slot.dead = True
            self._note(f"slot {slot.index} on {slot.host} died ({type(exc).__name__})")
        except Exception:  # noqa: BLE001 - the killed run's own outcome does not matter
            pass
        with self._lock:
            self.withdrawn += 1
        return True

    def _note(self, text: str) -> None:
        with self._lock:
            if text not in self.notes:
                self.notes.append(text)

    def kill_active(self) -> None:
        """Kill the candidates running on the hosts now (each slot kills its process groups)."""
        with self._lock:
            busy = list({id(s): s for s in self._in_flight.values()}.values())
        refs = []
        for slot in busy:
            try:
                refs.append(slot.actor.kill_active.remote())
            except Exception:  # noqa: BLE001 - a dead actor has nothing running
                pass
        if refs:
            self.ray.wait(refs, num_returns=len(refs), timeout=30)
        self.local.kill_active()

    def _kill_actor(self, slot: _Remote) -> None:
        try:
            self.ray.get(slot.actor.close.remote(), timeout=30)
        except Exception:  # noqa: BLE001
            pass
        try:
            self.ray.kill(slot.actor)
        except Exception:  # noqa: BLE001
            pass

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for slot in self.slots:
            if not slot.dead:
                self._kill_actor(slot)
                slot.dead = True
        self._archive_ref = None
        global ACTIVE
        if ACTIVE is self:
            ACTIVE = None
        if self.started_ray:
            self.ray.shutdown()
            self.started_ray = False
        if self.ray_home is not None:
            remove_tree(self.ray_home)
            self.ray_home = None

    def describe(self) -> str:
        live = self.live
        hosts = sorted({s.host for s in live})
        text = f"{len(live)} Ray slot(s) on {len(hosts)} host(s) ({', '.join(hosts)}), snapshot {self.digest[:12]}"
        if self.config.resources:
            text += ", each with " + ", ".join(f"{k}={v:g}" for k, v in self.config.resources.items())
        return "; ".join([text, *self.notes])


# the longest unix socket path Ray makes below its temp dir: <dir>/session_<date>_<time>_<us>_<pid>/sockets/plasma_store
_RAY_SOCKET_TAIL = len("/session_2026-11-30_22-58-54_267364_4194304/sockets/plasma_store")
_SUN_PATH_MAX = 107  # sockaddr_un's sun_path, less its NUL


def _ray_base() -> str:
    """Where the private dir of a local cluster's session files goes: the temp dir, or ``/tmp`` when the temp dir is
    so deep that Ray's socket paths below ``<dir>/rkXXXXXXXX/r`` would not fit a unix socket's path."""
    base = tempfile.gettempdir()
    if len(base) + len("/rkXXXXXXXX/r") + _RAY_SOCKET_TAIL > _SUN_PATH_MAX and os.path.isdir("/tmp") \
            and os.access("/tmp", os.W_OK | os.X_OK):
        return "/tmp"
    return base


def _shipped(spec: RunSpec) -> RunSpec:
    """``spec`` as a slot runs it: with this process's network setting (``reportkit --no-network``) written into it —
    a Ray worker is another process, whose own default is the network on (round 10 of sandbox attacks: a candidate
    on a slot connected over TCP under --no-network)."""
    from reportkit.run.sandbox import network_default

    return spec if spec.network is not None else replace(spec, network=network_default())


def prepare_ray(config: RayConfig, spec: RunSpec, source: str, differs: Callable[[RunResult], str | None],
                sandbox: Sandbox) -> tuple[Executor, str]:
    """The Ray executor for a minimization, admitted (``differs``: see :meth:`RayExecutor.admit`); or the
    local cold executor with the reason when no slot is left."""
    t0 = time.monotonic()
    executor = RayExecutor(config, spec, source)
    try:
        executor.admit(spec, source, differs)
    except BaseException:
        executor.close()
        raise
    if not executor.live:
        why = "; ".join(executor.notes) or "no slot could be started"
        executor.close()
        return ColdExecutor(), f"cold: no Ray slot admitted ({why})"
    return executor, executor.describe() + f" (set up in {time.monotonic() - t0:.0f} s)"
