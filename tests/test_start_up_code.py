"""Code the environment runs when the interpreter starts, given with ``--env``: a ``sitecustomize`` on the user's
``PYTHONPATH`` (docs/minimize.md's own example passes ``--env PYTHONPATH=src``), a library in ``LD_PRELOAD``.
Blind round 8 of sandbox attacks: it ran before the run confined itself (without bubblewrap with the user's full
rights; the loader's library in the ``bwrap`` process itself), and in the warm server. Now a cold run starts the
interpreter isolated, confines itself, then starts again with them set (they still act: the script sees its
``PYTHONPATH`` and the preloaded library); the warm server is not used with them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _check(script: Path, *env: str) -> subprocess.CompletedProcess:
    options = [a for value in env for a in ("--env", value)]
    return subprocess.run([sys.executable, "-m", "reportkit", "check", str(script), *options], capture_output=True,
                          text=True, cwd=script.parent, timeout=300)


def _project(tmp_path: Path) -> tuple[Path, Path, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    src = tmp_path / "src"
    src.mkdir()
    (src / "helper.py").write_text("NAME = 'from-src'\n")
    (src / "sitecustomize.py").write_text(
        f"import os\nopen(os.path.join({str(outside)!r}, 'site-%d' % os.getpid()), 'w').write('x')\n")
    proj = tmp_path / "proj"
    proj.mkdir()
    script = proj / "script.py"
    script.write_text("import helper\nmaps = open('/proc/self/maps').read()\n"
                      "raise ValueError(helper.NAME + (' preloaded' if 'pre.so' in maps else ''))\n")
    return script, src, outside


def test_a_sitecustomize_on_the_given_path_runs_confined(tmp_path, protection_mode):
    script, src, outside = _project(tmp_path)
    done = _check(script, f"PYTHONPATH={src}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ValueError: from-src" in done.stdout + done.stderr  # (the path still acts)
    assert list(outside.iterdir()) == []  # (unconfined it wrote once per run)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler to build the preloaded library")
def test_a_preloaded_library_runs_confined_and_still_loads(tmp_path, protection_mode):
    script, src, outside = _project(tmp_path)
    (tmp_path / "pre.c").write_text(
        "#include <stdio.h>\n#include <unistd.h>\n__attribute__((constructor)) static void pwn(void) {\n"
        f'  char p[512]; snprintf(p, sizeof p, "{outside}/ld-%d", getpid());\n'
        '  FILE *f = fopen(p, "w"); if (f) { fputs("x", f); fclose(f); }\n}\n')
    lib = tmp_path / "pre.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(tmp_path / "pre.c")], check=True)
    control = subprocess.run(["/bin/true"], env={**os.environ, "LD_PRELOAD": str(lib)})
    assert control.returncode == 0 and len(list(outside.iterdir())) == 1  # (the library does write, unconfined)
    (outside / os.listdir(outside)[0]).unlink()
    done = _check(script, f"LD_PRELOAD={lib}", f"PYTHONPATH={src}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ValueError: from-src preloaded" in done.stdout + done.stderr
    assert list(outside.iterdir()) == []
