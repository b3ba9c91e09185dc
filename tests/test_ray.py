"""The Ray executor: helpers (fast, no Ray needed) and a real minimization on a local two-node Ray
cluster on 127.0.0.1 (two slots), whose result must equal the local ``-j 2`` one (``ray`` + ``slow``)."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from reportkit.cancel import Withdrawn, current
from reportkit.errors import UserError
from reportkit.run.ray_executor import (
    connect_bounded,
    differences,
    host_port,
    import_ray,
    key_facts,
    parse_resources,
    snapshot,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "01_pure_python" / "analyze_access_logs.py"


def cli(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 600):
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout)


@pytest.mark.parametrize("items, expected", [
    (["spyre=1"], {"spyre": 1.0}),
    (["spyre=1,GPU=0.5", "mem"], {"spyre": 1.0, "GPU": 0.5, "mem": 1.0}),
    (None, {}),
])
def test_parse_resources(items, expected):
    assert parse_resources(items) == expected


@pytest.mark.parametrize("bad", ["spyre=0", "spyre=x", "=1"])
def test_parse_resources_rejects(bad):
    with pytest.raises(UserError, match="NAME=AMOUNT"):
        parse_resources([bad])


def test_snapshot_is_the_sandbox_copy_and_stable(tmp_path):
    (tmp_path / "s.py").write_text("import helper\n")
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "helper.cpython-311.pyc").write_bytes(b"junk")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.txt").write_text("a")
    data, digest = snapshot(tmp_path / "s.py", isolate_file=False)
    names = sorted(tarfile.open(fileobj=io.BytesIO(data)).getnames())
    assert names == ["data", "data/a.txt", "helper.py", "s.py"]  # the ignore list applies
    os.utime(tmp_path / "helper.py", (1, 1))
    assert snapshot(tmp_path / "s.py", isolate_file=False)[1] == digest  # content, not mtimes
    (tmp_path / "helper.py").write_text("X = 2\n")
    assert snapshot(tmp_path / "s.py", isolate_file=False)[1] != digest
    only = snapshot(tmp_path / "s.py", isolate_file=True)[0]
    assert tarfile.open(fileobj=io.BytesIO(only)).getnames() == ["s.py"]


def test_environment_differences_are_named():
    here = key_facts({"basics": {"python_full": "3.11.7", "system": "Linux", "machine": "x86_64"},
                      "packages": {"versions": {"torch": "2.13.0", "numpy": "2.1"}},
                      "torch": {"version": "2.13.0", "git_version": "abc"}})
    there = key_facts({"basics": {"python_full": "3.11.7", "system": "Linux", "machine": "x86_64"},
                       "packages": {"versions": {"torch": "2.12.0", "numpy": "2.1"}},
                       "torch": {"version": "2.12.0", "git_version": "def"}})
    assert differences(here, here) == []
    diff = "; ".join(differences(here, there))
    assert "torch 2.13.0 here, 2.12.0 there" in diff and "git_version abc here, def there" in diff


def test_missing_ray_is_one_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an interpreter without Ray sees: ImportError
    with pytest.raises(UserError, match=r"pip install 'reportkit\[ray\]'"):
        import_ray()


def test_cli_rejects_ray_options_without_ray_executor(tmp_path):
    script = tmp_path / "f.py"
    script.write_text("raise ValueError('x')\n")
    proc = cli("minimize", str(script), "--ray-address", "127.0.0.1:1", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout
    assert "--ray-address / --ray-resources need --executor ray" in proc.stderr


def test_the_window_withdraws_answers_it_will_not_consume():
    """Once a candidate is interesting, the later ones in flight are withdrawn: an executor that can stop
    early (Ray) ends them with Withdrawn, and no verdict is recorded for them."""
    import threading

    from reportkit.reduce.tester import Tester

    started = threading.Event()

    def predicate(candidate: str) -> bool:
        if "slow" in candidate:
            started.set()
            event = current()
            assert event is not None, "a prefetched test runs withdrawable"
            if not event.wait(60):  # what the Ray executor does: wait for the answer or the withdrawal
                return False
            raise Withdrawn
        started.wait(60)  # the slow one is in flight before this answer comes
        return True

    tester = Tester("x = 0\ny = 1\n", predicate, jobs=2)
    # both in flight at once, whatever the window's odds say (a width of 1 never ran the slow one: the first
    # answer then waited its 60 s for it, and the withdrawal was not tested at all)
    tester._window.width = lambda p: 2
    try:
        assert tester.first_interesting(["x = 0\n", "y = 1  # slow\n"]) == 0
        assert started.is_set()
        from reportkit.reduce.bookkeeping import key

        assert tester._known(key("x = 0\n")) is True
        assert tester._known(key("y = 1  # slow\n")) is None  # withdrawn: no verdict, asked again if needed
    finally:
        tester.close(wait=True)


@pytest.mark.parametrize("address, expected", [
    ("127.0.0.1:6379", ("127.0.0.1", 6379)), ("ray://head:10001", ("head", 10001)),
    ("[::1]:6379", ("::1", 6379)), ("auto", None), ("head", None),
])
def test_host_port(address, expected):
    assert host_port(address) == expected


def test_unreachable_ray_address_fails_at_once_with_one_message():
    import socket
    import time

    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]

    class NoRay:  # ray.init must not even be tried
        def init(self, **kwargs):
            raise AssertionError("ray.init called")

    start = time.monotonic()
    with pytest.raises(UserError, match=f"nothing listens on port {port} of 127.0.0.1"):
        connect_bounded(NoRay(), f"127.0.0.1:{port}", 30)
    assert time.monotonic() - start < 5


def test_a_silent_ray_address_is_given_up_after_the_timeout():
    import socket
    import threading
    import time

    hold = threading.Event()

    class HangingRay:  # what ray.init does against a port that accepts but is not a Ray GCS: retries for minutes
        def init(self, **kwargs):
            hold.wait(60)

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(4)
        start = time.monotonic()
        with pytest.raises(UserError, match="Ray did not answer within 1.5 s"):
            connect_bounded(HangingRay(), f"127.0.0.1:{sock.getsockname()[1]}", 1.5, probe=lambda *_: None)
        assert time.monotonic() - start < 10
    hold.set()


@pytest.mark.parametrize("why, message", [
    ("timeout", "it accepts connections but Ray did not answer within 7 s"),
    ("ConnectionError: GCS has gone away", "cannot connect to the Ray cluster at 127.0.0.1:[0-9]+: "
                                           "ConnectionError: GCS has gone away"),
])
def test_the_child_probe_decides_before_ray_init_runs_here(why, message):
    import socket

    class NoRay:  # the probe failed: ray.init must not be tried in this process
        def init(self, **kwargs):
            raise AssertionError("ray.init called")

    asked = []
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(4)
        with pytest.raises(UserError, match=message):
            connect_bounded(NoRay(), f"127.0.0.1:{sock.getsockname()[1]}", 7,
                            probe=lambda address, left: asked.append((address, left)) or why)
    assert len(asked) == 1 and 0 < asked[0][1] <= 7


def test_the_child_probe_says_why_in_one_line_and_prints_nothing(tmp_path, capfd):
    """Where the probe's interpreter has no Ray (the fast suite's), it fails: one line, nothing on our fds."""
    from reportkit.run.ray_executor import probe_in_child

    try:
        import ray  # noqa: F401
        pytest.skip("Ray is installed: the probe would connect (covered by the slow test below)")
    except ImportError:
        pass
    why = probe_in_child("127.0.0.1:1", 60)
    assert why == "ModuleNotFoundError: No module named 'ray'"
    captured = capfd.readouterr()
    assert captured.out == captured.err == ""


@pytest.mark.ray
@pytest.mark.slow
def test_a_port_that_is_not_ray_gives_one_message_and_nothing_of_rays_own(tmp_path):
    """Ray's C++ core warns on file descriptor 2 while it retries a port that is not a GCS ("Failed to connect
    to GCS at address ..."); it must not reach the terminal past reportkit's redaction edge."""
    pytest.importorskip("ray")
    import socket

    script = tmp_path / "f.py"
    script.write_text("raise ValueError('x')\n")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "REPORTKIT_RAY_CONNECT_TIMEOUT": "8"}
    env.pop("RAY_ADDRESS", None)
    with socket.socket() as sock:  # accepts TCP connections (the kernel's backlog) and never answers
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        port = sock.getsockname()[1]
        proc = cli("minimize", str(script), "--executor", "ray", "--ray-address", f"127.0.0.1:{port}",
                   cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith(f"reportkit: cannot connect to the Ray cluster at 127.0.0.1:{port}: it accepts")
    assert not any("GCS" in line and "within 8 s" not in line for line in lines), lines
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.ray
def test_cli_unreachable_ray_address_exits_2(tmp_path):
    pytest.importorskip("ray")
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    script = tmp_path / "f.py"
    script.write_text("raise ValueError('x')\n")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    proc = cli("minimize", str(script), "--executor", "ray", "--ray-address", f"127.0.0.1:{port}", "-j", "2",
               cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert f"cannot connect to the Ray cluster at 127.0.0.1:{port}: nothing listens" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "f.min.py").exists()


# --------------------------------------------------------------------------- a real cluster


@pytest.mark.ray
@pytest.mark.slow
def test_minimize_on_a_local_ray_cluster_equals_local_j2(tmp_path):
    # No --ray-address: the executor starts a local Ray cluster for the run (ray.init, one CPU per slot,
    # 127.0.0.1 only) and shuts it down at the end.
    pytest.importorskip("ray")
    work = tmp_path / "ex"
    shutil.copytree(EXAMPLE.parent, work, ignore=shutil.ignore_patterns("*.min.py", "__pycache__"))
    script = work / EXAMPLE.name
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    local = cli("minimize", str(script), "-j", "2", "-o", str(tmp_path / "local.py"), "--json", env=env)
    assert local.returncode == 0, local.stderr[-2000:]
    remote = cli("minimize", str(script), "-j", "2", "--executor", "ray",
                 "-o", str(tmp_path / "ray.py"), "--json", env=env)
    assert remote.returncode == 0, remote.stderr[-3000:]
    import json

    report = json.loads(remote.stdout)
    assert report["executor"] == "ray", report["executor_note"]
    assert "2 Ray slot(s) on 1 host(s)" in report["executor_note"]  # both slots admitted
    assert report["verified"] is True
    assert (tmp_path / "ray.py").read_text() == (tmp_path / "local.py").read_text()
    # The same questions in the same order; locally the answers the reducer will not consume are waited for
    # (and counted), on Ray they are withdrawn and killed (not counted; asked again, and counted, only if
    # the walk reaches the same text later). How far -j 2 runs ahead depends on the odds the answers that
    # have arrived give (reportkit/reduce/tester.py), so two -j 2 runs may differ by a few runs either way; Ray
    # must not cost more than that.
    local_runs = json.loads(local.stdout)["tests_run"]
    assert 0 < report["tests_run"] <= local_runs + max(3, local_runs // 20), (report["tests_run"], local_runs)


def json_error_on_ray(tmp_path, config, timeout: float):
    """A script failing with a JSONDecodeError, its original run, and a Ray executor for it:
    (spec, policy, rep, sandbox, executor, note); the caller closes the executor and the sandbox."""
    from reportkit.failure.check import establish, prepare_executor
    from reportkit.failure.signature import MatchPolicy
    from reportkit.run.runner import Sandbox
    from reportkit.run.spec import RunSpec

    script = tmp_path / "f.py"
    script.write_text("import json\njson.loads('{')\n")
    spec = RunSpec(script=script, python=sys.executable, timeout=timeout)
    policy = MatchPolicy()
    rep = establish(spec, policy, runs=1)
    box = Sandbox(script)
    executor, note = prepare_executor(config, spec, script.read_text(), rep.signature, policy, box)
    return spec, policy, rep, box, executor, note


@pytest.mark.ray
@pytest.mark.slow
def test_a_dead_slot_is_dropped_and_its_candidate_rerun_elsewhere(tmp_path):
    ray = pytest.importorskip("ray")
    from reportkit.failure.signature import same_failure, signature_of
    from reportkit.run.ray_executor import RayConfig

    spec, policy, rep, box, executor, note = json_error_on_ray(tmp_path, RayConfig(slots=2), timeout=60)
    home = executor.ray_home  # (round 11, blind: Ray's 0777 session dir stayed in a shared $TMPDIR/ray after the run)
    try:
        assert executor.name == "ray" and len(executor.live) == 2, note
        assert home and os.stat(home).st_mode & 0o777 == 0o700 and (Path(home) / "r").is_dir()
        ray.kill(executor.slots[0].actor)  # a host going away
        for _ in range(3):
            result = executor.run(spec, "import json\n\njson.loads('{')\n", box)
            assert same_failure(rep.signature, signature_of(result, policy), policy)
        assert len(executor.live) == 1 and executor.local_runs == 0
        assert any("died" in n for n in executor.notes)
    finally:
        executor.close()
        box.cleanup()
    assert not ray.is_initialized()  # the cluster started for the run is gone
    assert not os.path.exists(home)  # and so are its session files


@pytest.mark.ray
@pytest.mark.slow
def test_a_withdrawn_candidate_is_killed_on_its_host(tmp_path):
    """The reducer withdraws a running candidate: its process tree on the host is killed at once (not at
    its timeout), run() raises Withdrawn (no verdict), and the slot takes the next candidate."""
    import threading
    import time

    ray = pytest.importorskip("ray")
    from reportkit.cancel import withdrawable
    from reportkit.failure.signature import same_failure, signature_of
    from reportkit.run.ray_executor import RayConfig

    spec, policy, rep, box, executor, note = json_error_on_ray(tmp_path, RayConfig(slots=1, inner="cold"), timeout=300)
    try:
        assert executor.name == "ray" and len(executor.live) == 1, note
        # a candidate that would hold the slot for 200 s, with a child process of its own
        slow = ("import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(200)'])\n"
                "time.sleep(200)\n")
        event = threading.Event()
        outcome = {}

        def ask():
            with withdrawable(event):
                try:
                    outcome["result"] = executor.run(spec, slow, box)
                except Withdrawn:
                    outcome["withdrawn"] = time.monotonic()

        thread = threading.Thread(target=ask)
        thread.start()
        deadline = time.monotonic() + 60
        while executor.status()[0] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(2)  # the candidate's processes are up
        withdrawn_at = time.monotonic()
        event.set()
        thread.join(60)
        assert not thread.is_alive() and "withdrawn" in outcome, outcome
        assert outcome["withdrawn"] - withdrawn_at < 20  # killed, not waited for (200 s)
        assert executor.withdrawn == 1 and executor.status() == (0, 1)
        result = executor.run(spec, "import json\n\njson.loads('{')\n", box)  # the slot is free again
        assert same_failure(rep.signature, signature_of(result, policy), policy)
    finally:
        executor.close()
        box.cleanup()
    assert not ray.is_initialized()


def test_ci_executor_needs_minimize(tmp_path):
    junit = tmp_path / "r.xml"
    junit.write_text('<testsuite tests="0" failures="0"></testsuite>\n')
    proc = cli("ci", "--junit", str(junit), "--out", str(tmp_path / "out"), "--ray-address", "127.0.0.1:1",
               cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout
    assert "--ray-address / --ray-resources need --executor ray" in proc.stderr
    if importlib.util.find_spec("ray") is None:
        return
    proc = cli("ci", "--junit", str(junit), "--out", str(tmp_path / "out"), "--executor", "ray", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout
    assert "add --minimize" in proc.stderr


@pytest.mark.ray
@pytest.mark.slow
def test_ci_minimizes_on_a_local_ray_cluster(tmp_path):
    """`ci --minimize --executor ray`: the failure's test module is minimized by Ray slots (a private
    local cluster), and the manifest says where its candidates ran."""
    pytest.importorskip("ray")
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (root / "tests" / "test_parse.py").write_text(
        "import json\n\nCONFIG = {'a': 1, 'b': [1, 2, 3]}\n\n\ndef helper(x):\n    return x * 2\n\n\n"
        "def test_keys():\n    data = json.loads(json.dumps(CONFIG))\n    assert helper(2) == 4\n"
        "    assert data['c'] == 3\n")
    junit = tmp_path / "results.xml"
    subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                   cwd=root, capture_output=True, timeout=120)
    proc = cli("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(tmp_path / "out"),
               "--no-ladder", "--minimize", "--executor", "ray", "-j", "2", cwd=tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    manifest = json.loads((tmp_path / "out" / "reportkit-ci.json").read_text())
    (failure,) = manifest["failures"]
    assert failure["verdict"] == "confirmed" and failure["minimized"], (failure["note"], proc.stderr[-3000:])
    assert failure["minimized_on"] == "ray"
    reduced = (tmp_path / "out" / failure["minimized"]).read_text()
    assert "data['c']" in reduced or 'data["c"]' in reduced


def test_a_slot_is_sent_the_network_setting_of_reportkit(tmp_path):
    """Round 10 of sandbox attacks: a candidate on a Ray slot connected over TCP under ``reportkit --no-network``: the
    setting is this process's default, and a Ray worker is another process (its default: the network on). What a
    slot runs now carries the setting; a spec that says its own keeps it."""
    from reportkit.run import sandbox
    from reportkit.run.ray_executor import _shipped
    from reportkit.run.spec import RunSpec

    spec = RunSpec(script=tmp_path / "s.py")
    try:
        sandbox.set_network(False)
        assert _shipped(spec).network is False and spec.network is None
        assert _shipped(RunSpec(script=tmp_path / "s.py", network=True)).network is True
        sandbox.set_network(True)
        assert _shipped(spec).network is True
    finally:
        sandbox.set_network(True)


def test_the_private_session_dir_fits_rays_socket_paths(monkeypatch):
    """Round 12 (blind): the private dir under a 37-character TMPDIR made Ray's socket paths longer than a unix
    socket's 107 characters and the cluster did not start (a traceback). A deep temp dir sends it to /tmp."""
    import tempfile

    from reportkit.run import ray_executor as rx

    monkeypatch.setattr(tempfile, "tempdir", "/tmp")
    assert rx._ray_base() == "/tmp"
    deep = "/home/runner/work/_temp/" + "d" * 20
    monkeypatch.setattr(tempfile, "tempdir", deep)
    base = rx._ray_base()
    assert base == "/tmp" and len(base) + len("/rkXXXXXXXX/r") + rx._RAY_SOCKET_TAIL <= rx._SUN_PATH_MAX
    short = "/var/tmp"
    monkeypatch.setattr(tempfile, "tempdir", short)
    assert rx._ray_base() == short  # (a temp dir that fits is kept)
