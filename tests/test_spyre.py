"""Tests for reportkit.report.spyre against real Torch-Spyre artifacts (tests/fixtures/torch-spyre)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reportkit.report import spyre

FIXTURES = Path(__file__).parent / "fixtures" / "torch-spyre"
ADD = FIXTURES / "add" / "sdsc_0.json"
MUL = FIXTURES / "fma" / "sdsc_0.json"
FMA_ADD = FIXTURES / "fma" / "sdsc_1.json"
BUNDLE = FIXTURES / "fma" / "bundle.mlir"
SPYRECODE = FIXTURES / "add_3d" / "spyreCodeDir" / "spyrecode.json"


def debuginfo(func: str, *args: object) -> str:
    """A line as printed by torch_spyre/csrc/logging.h DEBUGINFO: every piece followed by ' '."""
    return " ".join(["[", func, "] ", *(str(a) for a in args)])


# ---------------------------------------------------------------------------
# sdsc_N.json
# ---------------------------------------------------------------------------


def test_add_sdsc_concrete_values():
    s = spyre.parse_sdsc(ADD)
    assert s.error is None
    assert s.index == 0
    assert s.kernel_keys == ["0_add"]
    assert s.op_names == ["add"]
    assert s.aten_op == "aten.add.Tensor"
    assert s.debug_id == "8249498605557491263"
    assert s.source_file == "/home/senuser/compile_add.py"
    assert s.source_line == 11
    assert s.ir_chain == ["add", "buf0"]
    assert s.num_cores == 32
    assert s.work_slices == {"mb": 2, "out": 16}
    (op,) = s.ops
    assert op.compute_ops == ["add"]
    assert op.exec_units == ["sfp"]
    assert op.iteration_space == {"mb": 512, "out": 1024}
    assert op.per_core_sizes == {"mb": 256, "out": 64}
    assert (op.num_cores, op.num_corelets) == (32, 1)
    assert [(t.index, t.name, t.role) for t in op.tensors] == [
        (0, "Tensor0", "input"),
        (1, "Tensor1", "input"),
        (2, "Tensor2", "output"),
    ]
    for t in op.tensors:
        assert t.data_format == "SEN169_FP16"
        assert t.word_length == 2
        assert t.ds_type == "OUTPUT"
        assert t.memories == ["hbm", "lx"]
        assert t.layout_dim_order == ["mb", "out"]
        assert t.stick_dim_order == ["out"]
        assert t.stick_size == [64]


@pytest.mark.parametrize(
    ("path", "index", "key", "op", "aten", "memories"),
    [
        # fma = mul then add; the intermediate (mul output, add input 0) stays in LX
        (MUL, 0, "0_mul", "mul", "aten.mul.Tensor", [["hbm", "lx"], ["hbm", "lx"], ["lx"]]),
        (FMA_ADD, 1, "1_add", "add", "aten.add.Tensor", [["lx"], ["hbm", "lx"], ["hbm", "lx"]]),
    ],
)
def test_fma_sdsc_concrete_values(path, index, key, op, aten, memories):
    s = spyre.parse_sdsc(path)
    assert s.index == index
    assert s.kernel_keys == [key]
    assert s.op_names == [op]
    assert s.aten_op == aten
    assert s.source_file == "/home/senuser/torch-spyre/extensions/spyre-cli/examples/references.py"
    assert s.source_line == 45
    assert s.num_cores == 8
    assert s.work_slices == {"mb": 1, "out": 8}
    assert s.ops[0].per_core_sizes == {"mb": 512, "out": 128}
    assert [t.memories for t in s.ops[0].tensors] == memories
    assert [t.role for t in s.ops[0].tensors] == ["input", "input", "output"]


@pytest.mark.parametrize("path", [ADD, MUL, FMA_ADD])
def test_excerpt_is_short_and_mentions_op(path):
    s = spyre.parse_sdsc(path)
    text = s.render_excerpt()
    lines = text.splitlines()
    assert 3 <= len(lines) <= 8
    assert len(text) < 600
    assert s.op_names[0] in lines[0]
    assert s.aten_op in lines[0]
    assert f":{s.source_line}" in lines[0]
    assert "cores: " in text and "stick out:64" in text
    assert "coreIdToWkSlice" not in text  # a summary, not a dump


def test_excerpt_respects_max_lines():
    assert len(spyre.parse_sdsc(ADD).render_excerpt(max_lines=2).splitlines()) == 2


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", ""])
def test_parse_sdsc_bad_file_reports_error(tmp_path, content):
    bad = tmp_path / "sdsc_3.json"
    bad.write_text(content)
    s = spyre.parse_sdsc(bad)
    assert s.error
    assert s.index == 3
    assert "unreadable" in s.render_excerpt()


def test_parse_sdsc_missing_file_reports_error(tmp_path):
    assert "FileNotFoundError" in spyre.parse_sdsc(tmp_path / "sdsc_0.json").error


# ---------------------------------------------------------------------------
# op-name matching
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "clone",
        "aten.clone",
        "aten::clone",
        "aten.clone.default",
        "torch.ops.aten.clone.default",
        "CLONE",
        "clone_",
    ],
)
def test_normalize_op_name_spellings(spelling):
    assert spyre.normalize_op_name(spelling) == "clone"


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        (["aten::mul"], [MUL]),
        (["aten.mul.Tensor"], [MUL]),
        (["add"], [ADD, FMA_ADD]),
        (["aten.add_.Tensor"], [ADD, FMA_ADD]),
        (["torch.ops.aten.add.Tensor", "aten::mul"], [ADD, MUL, FMA_ADD]),
        (["aten.clone"], []),
        ([""], []),
    ],
)
def test_select_sdsc_for_ops(ops, expected):
    summaries = [spyre.parse_sdsc(p) for p in (ADD, MUL, FMA_ADD)]
    assert [s.path for s in spyre.select_sdsc_for_ops(summaries, ops)] == expected


def test_extract_op_names_from_traceback():
    tb = (
        'File "/x/torch/_ops.py", line 841, in __call__\n'
        "    return self._op(*args, **kwargs)\n"
        "RuntimeError: Spyre lowering failed for aten.clone.default (aten::add.Tensor input)\n"
        "  while executing %mul : torch.ops.aten.mul.Tensor\n"
    )
    assert spyre.extract_op_names(tb) == ["clone", "add", "mul"]


# ---------------------------------------------------------------------------
# bundle.mlir / spyrecode.json
# ---------------------------------------------------------------------------


def test_parse_bundle_mlir_lists_sdsc_files():
    b = spyre.parse_bundle_mlir(BUNDLE)
    assert b.error is None
    assert b.functions == ["sdsc_bundle"]
    assert b.sdsc_files == ["sdsc_0.json", "sdsc_1.json"]
    assert b.input_args == [f"arg_{i}_base_addr" for i in range(4)]
    assert b.has_loops is False
    assert all((BUNDLE.parent / name).is_file() for name in b.sdsc_files)


def test_parse_bundle_mlir_missing(tmp_path):
    assert spyre.parse_bundle_mlir(tmp_path / "bundle.mlir").error


def test_parse_spyrecode():
    s = spyre.parse_spyrecode(SPYRECODE)
    assert s.preparation == ["Allocate", "InitTransfer"]
    assert s.execution == ["ComputeOnHost", "DataTransfer", "ComputeOnDevice"]


# ---------------------------------------------------------------------------
# artifact discovery
# ---------------------------------------------------------------------------


def _copy_into(dest: Path, files: dict[str, Path], mtime: float) -> Path:
    dest.mkdir(parents=True)
    for name, src in files.items():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        os.utime(target, (mtime, mtime))
    os.utime(dest, (mtime, mtime))
    return dest


@pytest.mark.parametrize("root_name", ["inductor-spyre", "inductor-spyre-xyz"])
def test_find_spyre_artifacts_layout(tmp_path, root_name):
    root = tmp_path / root_name
    fma = _copy_into(
        root / "1a2b3c4d_sdsc_fused_mul_add_0_ab12_d34",
        {"sdsc_1.json": FMA_ADD, "sdsc_0.json": MUL, "bundle.mlir": BUNDLE},
        mtime=2_000_000,
    )
    add = _copy_into(root / "9f8e7d6c_sdsc_add_1_zz99yy88", {"sdsc_0.json": ADD}, mtime=1_000_000)
    add3d = _copy_into(
        root / "0badc0de_sdsc_add_2_qwertyui", {"spyreCodeDir/spyrecode.json": SPYRECODE}, mtime=3_000_000
    )
    (root / "5e5e5e5e_empty_kernel_abcdefgh").mkdir()  # no artifacts
    _copy_into(tmp_path / "elsewhere", {"sdsc_0.json": ADD}, mtime=4_000_000)  # not under inductor-spyre*

    found = spyre.find_spyre_artifacts(tmp_path)

    assert [a.directory for a in found] == [add3d, fma, add]  # newest first
    assert [a.kernel_name for a in found] == ["sdsc_add_2", "sdsc_fused_mul_add_0", "sdsc_add_1"]
    by_dir = {a.directory: a for a in found}
    assert by_dir[fma].sdsc_paths == [fma / "sdsc_0.json", fma / "sdsc_1.json"]
    assert by_dir[fma].bundle_mlir == fma / "bundle.mlir"
    assert by_dir[fma].spyrecode_json is None
    assert (
        by_dir[add3d].sdsc_paths == []
        and by_dir[add3d].spyrecode_json == add3d / "spyreCodeDir" / "spyrecode.json"
    )
    assert by_dir[add].bundle_mlir is None


def test_sdsc_paths_sorted_numerically(tmp_path):
    kernel = tmp_path / "inductor-spyre" / "k_abcdefgh"
    kernel.mkdir(parents=True)
    for idx in (10, 2, 0, 1):
        shutil.copyfile(ADD, kernel / f"sdsc_{idx}.json")
    (kernel / "sdsc_notes.txt").write_text("x")
    (found,) = spyre.find_spyre_artifacts(tmp_path)
    assert [p.name for p in found.sdsc_paths] == ["sdsc_0.json", "sdsc_1.json", "sdsc_2.json", "sdsc_10.json"]


def test_find_spyre_artifacts_missing_dir(tmp_path):
    assert spyre.find_spyre_artifacts(tmp_path / "nope") == []


@pytest.mark.parametrize(
    ("name", "kernel"),
    [
        ("1a2b3c4d_sdsc_fused_add_t_0_g2oznjte", "sdsc_fused_add_t_0"),
        ("sdsc_fused_add_t_0_g2oz_jte", "sdsc_fused_add_t_0"),  # legacy: no digest prefix
        ("short", None),
    ],
)
def test_kernel_name_from_dir(name, kernel):
    assert spyre.kernel_name_from_dir(name) == kernel


# ---------------------------------------------------------------------------
# debug logs
# ---------------------------------------------------------------------------

DCI_JSON = '{\n  "dci_dsName_": "DCI-Tensor-0",\n  "isHostToSen_": true,\n  "input_shape_": [65],\n  "output_shape_": [64, 2]\n}'
LAYOUT = "SpyreTensorLayout(device_size=[2, 64], stride_map =[64, 1], device_dtype=DataFormats.SEN169_FP16)"

LEGACY_STDOUT = "\n".join(
    [
        debuginfo(
            "spyre_empty_strided",
            "Tensor info on CPU (Size:",
            "[65]",
            ", Stride: ",
            "[1]",
            ", dtype: ",
            "c10::Half",
            ") to be mapped onto device ",
            "spyre:0",
        ),
        debuginfo("allocate", "allocating ", 256, " (bytes) on Spyre", "spyre:0"),
        debuginfo("spyre_empty_strided", "SpyreTensorLayout: ", LAYOUT),
        debuginfo("spyre_copy_from", "self (", "Half", ") is on:", "cpu"),
        debuginfo("spyre_copy_from", "dst (", "Half", ") on:", "spyre:0"),
        debuginfo("generate_dci", "DataConversionInfo: ", DCI_JSON),
        "tensor([0., 1., 2.], dtype=torch.float16)",  # the user's own print
        debuginfo("synchronize", "SpyreStream::synchronize() - stream ", 0, " on device ", 0),
    ]
)
UNIFIED_STDERR = "\n".join(
    [
        "/x/torch_spyre/logging_config.py:160: DeprecationWarning: TORCH_SPYRE_DEBUG is deprecated.",
        "[DEBUG] [spyre.runtime] 2026-03-04 10:11:12 spyre_empty: shape=[65] on Spyre spyre:0",
        f"[DEBUG] [spyre.runtime] 2026-03-04 10:11:12 spyre_empty: SpyreTensorLayout: {LAYOUT}",
        "[INFO] [spyre.inductor.sdsc_compile] Generating /tmp/torchinductor_u/inductor-spyre/k/sdsc_0.json",
        "[WARNING] [spyre.inductor.lowering] falling back to CPU for aten.sort.default",
        "[INFO] [httpx] HTTP Request: GET https://huggingface.co/x",  # not Spyre
        "[ERROR] [spyre.runtime] 2026-03-04 10:11:13 copyAsync: DMA failed for dst spyre:0",
    ]
)


def test_parse_legacy_cpp_lines():
    records = spyre.parse_debug_log(LEGACY_STDOUT, "")
    assert [r.function for r in records] == [
        "spyre_empty_strided", "allocate", "spyre_empty_strided", "spyre_copy_from",
        "spyre_copy_from", "generate_dci", "synchronize",
    ]  # fmt: skip
    assert all(r.format == "cpp" and r.stream == "stdout" and r.level == "DEBUG" for r in records)
    assert records[1].message == "allocating  256  (bytes) on Spyre spyre:0"
    assert records[3].message == "self ( Half ) is on: cpu"
    assert records[3].line_no == 4
    dci = records[5]
    assert dci.message.startswith("DataConversionInfo:") and dci.message.endswith("}")
    assert '"isHostToSen_": true' in dci.raw
    assert records[6].line_no == dci.line_no + DCI_JSON.count("\n") + 2  # user print skipped


def test_parse_unified_logging_records():
    records = spyre.parse_debug_log("", UNIFIED_STDERR)
    assert [(r.level, r.component) for r in records] == [
        ("DEBUG", "spyre.runtime"),
        ("DEBUG", "spyre.runtime"),
        ("INFO", "spyre.inductor.sdsc_compile"),
        ("WARNING", "spyre.inductor.lowering"),
        ("ERROR", "spyre.runtime"),
    ]
    cpp = records[0]
    assert (cpp.format, cpp.stream, cpp.timestamp, cpp.function) == (
        "logging",
        "stderr",
        "2026-03-04 10:11:12",
        "spyre_empty",
    )
    assert cpp.message == "shape=[65] on Spyre spyre:0"
    assert records[2].function is None and records[2].timestamp is None
    assert records[2].message.startswith("Generating ")
    assert records[4].line_no == 7
    assert len(spyre.parse_debug_log("", UNIFIED_STDERR, spyre_only=False)) == 6


def test_parse_log_file_and_merged_streams():
    log_file = "[DEBUG] [spyre.inductor.passes] after insert_restickify: 3 nodes\n"
    merged = LEGACY_STDOUT + "\n" + UNIFIED_STDERR  # 2>&1
    records = spyre.parse_debug_log(merged, "", log_file)
    assert {r.stream for r in records} == {"stdout", "log_file"}
    assert {r.format for r in records} == {"cpp", "logging"}
    assert records[-1].stream == "log_file" and records[-1].component == "spyre.inductor.passes"


def test_parse_ignores_noise_and_ansi():
    text = "\x1b[32m[INFO] [spyre.runtime] 2026-01-01 00:00:00 allocate: ok\x1b[0m\r\n[not a record]\nplain"
    (record,) = spyre.parse_debug_log(text, "")
    assert record.function == "allocate" and record.message == "ok"


def test_transfer_records_selection():
    records = spyre.parse_debug_log(LEGACY_STDOUT, UNIFIED_STDERR)
    selected = spyre.transfer_records(records)
    funcs = [r.function for r in selected]
    assert funcs == [
        "spyre_empty_strided", "allocate", "spyre_empty_strided", "spyre_copy_from",
        "spyre_copy_from", "generate_dci", "spyre_empty", "spyre_empty", "copyAsync",
    ]  # fmt: skip
    assert "synchronize" not in funcs
    assert not any(r.component == "spyre.inductor.lowering" for r in selected)


def test_transfer_records_by_message_only():
    record = spyre.parse_debug_log("", "[DEBUG] [spyre.inductor.codegen] copying stick to device spyre:0")[0]
    assert spyre.is_transfer_record(record)


@pytest.mark.parametrize(
    ("text", "size", "dim_map", "stride_map", "dtype", "extra"),
    [
        (LAYOUT, [2, 64], None, [64, 1], "SEN169_FP16", {}),
        (
            "SpyreTensorLayout(device_size=[3, 1, 64], dim_map =[1, 0, 1], num_stick_dims=1, "
            "format=StickFormat.Dense, device_dtype=DataFormats.SEN169_FP16)",
            [3, 1, 64], [1, 0, 1], None, "SEN169_FP16", {"num_stick_dims": "1", "format": "StickFormat.Dense"},
        ),
    ],
)  # fmt: skip
def test_parse_tensor_layout(text, size, dim_map, stride_map, dtype, extra):
    info = spyre.parse_tensor_layout(f"SpyreTensorLayout: {text}")
    assert (info.device_size, info.dim_map, info.stride_map, info.device_dtype) == (
        size,
        dim_map,
        stride_map,
        dtype,
    )
    assert info.extra == extra


def test_parse_tensor_layout_absent():
    assert spyre.parse_tensor_layout("shape=[65] on Spyre spyre:0") is None


# ---------------------------------------------------------------------------
# FFDC
# ---------------------------------------------------------------------------


def _ffdc_report(category: str, message: str, kernel: str | None) -> dict:
    """Shaped like torch_spyre/profiler/_ffdc.py collect() output."""
    return {
        "metadata": {
            "timestamp": "2026-03-04T10:11:12.123456+00:00",
            "host": "pod-0",
            "pid": 4242,
            "python_version": "3.12.13 (main) [GCC 14.2.1]",
            "torch_version": "2.10.0+cpu",
            "torch_spyre_version": "0.0.1",
            "platform": "Linux-5.14-x86_64-with-glibc2.39",
        },
        "failure": {
            "category": category,
            "exception_type": "CalledProcessError",
            "message": message,
            "traceback": "Traceback (most recent call last):\n  ...\n",
            "file": "/usr/lib64/python3.12/subprocess.py",
            "lineno": 577,
        },
        "environment": {"TORCH_COMPILE_DEBUG": "", "TORCH_SPYRE_DEBUG": "1", "TORCH_SPYRE_FFDC": "1"},
        "artifacts": {"searched": True, "found_count": 1, "paths": ["/tmp/torchinductor_u/inductor-spyre/k/sdsc_0.json"]},
        "runtime": {"kernel_name": kernel, "code_dir": "/tmp/torchinductor_u/inductor-spyre/k" if kernel else None},
        "hardware_state": {"spyre_available": False, "note": "hardware state unavailable without Spyre access"},
        "collector": {"capture_latency_ms": 12.5, "missing_fields": [], "collector_errors": [], "success": True, "completeness_pct": 100.0},
    }  # fmt: skip


def test_find_ffdc_reports(tmp_path):
    out = spyre.ffdc_reports_dir(tmp_path)
    out.mkdir(parents=True)
    backend = out / "ffdc_compile_backend_20260304T101112_123456_4242.json"
    backend.write_text(
        json.dumps(
            _ffdc_report(
                "compile_backend",
                "Command '['dxp_standalone', '-d', '/tmp/k']' returned non-zero exit status 1.",
                "sdsc_fused_add_0",
            )
        )
    )
    runtime = out / "ffdc_runtime_launch_20260305T000000_000001_77.json"
    runtime.write_text(json.dumps(_ffdc_report("runtime_launch", "launch failed\nsecond line", None)))
    broken = out / "ffdc_unknown_20260101T000000_000000_1.json"
    broken.write_text("{truncated")
    (out / "notes.json").write_text("{}")  # not an ffdc_* file

    reports = spyre.find_ffdc_reports(tmp_path)

    assert [r.path for r in reports] == [runtime, backend, broken]  # newest first by name timestamp
    rt, be, bad = reports
    assert (be.category, be.timestamp, be.pid) == ("compile_backend", "20260304T101112_123456", 4242)
    assert be.kernel_name == "sdsc_fused_add_0" and be.lineno == 577
    assert be.torch_version == "2.10.0+cpu" and be.torch_spyre_version == "0.0.1"
    assert be.artifact_paths == ["/tmp/torchinductor_u/inductor-spyre/k/sdsc_0.json"]
    assert be.summary.startswith("compile_backend: CalledProcessError: Command")
    assert "subprocess.py:577" in be.summary and "[kernel sdsc_fused_add_0]" in be.summary
    assert rt.category == "runtime_launch" and "second line" not in rt.summary
    assert bad.error and bad.category == "unknown"


def test_ffdc_category_prefers_json(tmp_path):
    out = spyre.ffdc_reports_dir(tmp_path)
    out.mkdir(parents=True)
    (out / "ffdc_unknown_20260304T101112_123456_1.json").write_text(
        json.dumps(_ffdc_report("unimplemented", "x", None))
    )
    (report,) = spyre.find_ffdc_reports(tmp_path)
    assert report.category == "unimplemented"


def test_find_ffdc_reports_none(tmp_path):
    assert spyre.find_ffdc_reports(tmp_path) == []


# ---------------------------------------------------------------------------
# LIB_VERSION_FILE, cache dir, install info
# ---------------------------------------------------------------------------

COMPONENTS = """\
ibm-deeptools:2.0.0-0.main.1+2457.d868b05_0.el10
ibm-senlib-core:2.0.0-0.main.1+280.3869e2e_0.el10

ibm-flex: 2.0.0-0.main.1+576.402f9b2_0.el10
# comment: ignored
garbage line without separator
"""


def test_read_lib_versions_explicit_path(tmp_path):
    f = tmp_path / "components.txt"
    f.write_text(COMPONENTS)
    assert spyre.read_lib_versions(f) == {
        "ibm-deeptools": "2.0.0-0.main.1+2457.d868b05_0.el10",
        "ibm-senlib-core": "2.0.0-0.main.1+280.3869e2e_0.el10",
        "ibm-flex": "2.0.0-0.main.1+576.402f9b2_0.el10",
    }


def test_read_lib_versions_from_env(tmp_path, monkeypatch):
    f = tmp_path / "components.txt"
    f.write_text(COMPONENTS)
    monkeypatch.setenv("LIB_VERSION_FILE", str(f))
    assert spyre.read_lib_versions()["ibm-flex"] == "2.0.0-0.main.1+576.402f9b2_0.el10"


@pytest.mark.parametrize("setting", ["unset", "empty", "missing", "directory"])
def test_read_lib_versions_never_raises(tmp_path, monkeypatch, setting):
    values = {"empty": "", "missing": str(tmp_path / "nope.txt"), "directory": str(tmp_path)}
    if setting == "unset":
        monkeypatch.delenv("LIB_VERSION_FILE", raising=False)
    else:
        monkeypatch.setenv("LIB_VERSION_FILE", values[setting])
    assert spyre.read_lib_versions() == {}


def test_inductor_cache_dir_env_override(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert spyre.inductor_cache_dir({"TORCHINDUCTOR_CACHE_DIR": "rel/cache"}) == tmp_path / "rel" / "cache"


def test_inductor_cache_dir_default_sanitizes_user(tmp_path):
    env = {"USER": 'dom\\a/b:c*?"<>|', "TMPDIR": str(tmp_path)}
    assert spyre.inductor_cache_dir(env) == tmp_path / "torchinductor_dom_a_b_c______"
    assert not (tmp_path / "torchinductor_dom_a_b_c______").exists()  # nothing created


def test_inductor_cache_dir_matches_torch(tmp_path, monkeypatch):
    cache_dir_utils = pytest.importorskip("torch._inductor.runtime.cache_dir_utils")
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.setenv("USER", "someone:x")
    assert spyre.inductor_cache_dir() == Path(cache_dir_utils.default_cache_dir())


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.parametrize("committed", [True, False])
def test_torch_spyre_install_uses_git_for_sha(tmp_path, monkeypatch, committed):
    name = "fake_spyre_pkg_for_reportkit"
    pkg = tmp_path / "checkout" / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('must not be imported')\n")
    (pkg / "version.py").write_text('__all__ = ["__version__"]\n__version__ = "0.0.1"\n')
    _git(pkg.parent, "init", "-q", "-b", "main")
    if committed:
        _git(pkg.parent, "add", ".")
        _git(pkg.parent, "commit", "-q", "-m", "init")
    monkeypatch.syspath_prepend(str(pkg.parent))

    info = spyre.torch_spyre_install(name)

    assert info.location == pkg and info.version == "0.0.1"
    if committed:
        assert info.git.commit == _git(pkg.parent, "rev-parse", "HEAD")
        assert info.git.toplevel == str(pkg.parent)
    else:
        assert info.git is None  # inside a repo but not tracked there: no attribution


def test_torch_spyre_install_absent():
    assert spyre.torch_spyre_install("no_such_package_for_reportkit_xyz") is None


# torch's TorchLogsFormatter (torch/_logging/_internal.py), as TORCH_LOGS=+torch_spyre prints it
TORCH_LOGS_STDERR = """\
V1123 09:24:57.462000 30955 torch_spyre/__init__.py:3] spyre_copy_from: copying a host tensor to the device
I1123 09:24:57.462100 30955 my_script.py:4] not Torch-Spyre's
[rank0]:W1123 09:24:57.463000 30955 torch_spyre/_inductor/passes.py:40] [0/0] a warning
"""


def test_parse_torch_logs_format():
    records = spyre.parse_debug_log("", TORCH_LOGS_STDERR)
    assert [(r.format, r.level, r.component, r.message) for r in records] == [
        ("torch_logs", "DEBUG", "torch_spyre", "spyre_copy_from: copying a host tensor to the device"),
        ("torch_logs", "WARNING", "torch_spyre._inductor.passes", "a warning"),
    ]
    assert records[0].timestamp == "1123 09:24:57.462000"
    assert spyre.transfer_records(records) == records[:1]


def test_a_record_on_stderr_and_in_the_log_file_counts_once():
    line = "[INFO] [spyre.inductor.passes] pass done"
    records = spyre.parse_debug_log("", line + "\n", f"{line}\n{line}\n[DEBUG] [spyre.runtime] only in the file\n")
    assert [(r.stream, r.message) for r in records] == [
        ("stderr", "pass done"), ("log_file", "pass done"), ("log_file", "only in the file")]


def test_ffdc_fallback_dir_traceback_and_hardware_state(tmp_path):
    fallback = tmp_path / "tmp" / spyre.FFDC_FALLBACK_DIR
    fallback.mkdir(parents=True)
    old = fallback / "ffdc_runtime_launch_20260101T000000_000001_5.json"
    old.write_text(json.dumps(_ffdc_report("runtime_launch", "an earlier run's", None)))
    os.utime(old, (1_000_000, 1_000_000))
    new = fallback / "ffdc_compile_backend_20260304T101112_123456_6.json"
    new.write_text(json.dumps(_ffdc_report("compile_backend", "dxp failed", "sdsc_fused_add_0")))
    (report,) = spyre.find_ffdc_reports(tmp_path / "cache", fallback=fallback, since=2_000_000)
    assert report.path == new and report.category == "compile_backend"
    assert report.traceback.startswith("Traceback (most recent call last):")
    assert report.hardware_state == {"spyre_available": False,
                                     "note": "hardware state unavailable without Spyre access"}


def test_ktir_and_provenance_next_to_the_sdsc(tmp_path):
    kdir = tmp_path / "inductor-spyre" / "0a1b2c3d_sdsc_fused_add_0_abcd1234"
    kdir.mkdir(parents=True)
    shutil.copy(FIXTURES / "add" / "sdsc_0.json", kdir / "sdsc_0.json")
    (kdir / "sdsc_fused_add_0.ktir").write_text("module {}\n")
    (kdir / "provenance.json").write_text("{}")
    (kernel,) = spyre.find_spyre_artifacts(tmp_path)
    assert [p.name for p in kernel.sdsc_paths] == ["sdsc_0.json"]
    assert [p.name for p in kernel.other_files] == ["provenance.json", "sdsc_fused_add_0.ktir"]


def test_ffdc_artifact_paths_point_into_the_bundle():
    report = spyre.FfdcReport(Path("r.json"), "compile_backend", None, None, artifact_paths=[
        "/tmp/reportkit-x/run-1/work/torch_compile_debug/run_2026_01_01-pid_7/torchinductor/model__0_inference_0.0/"
        "output_code.py",
        "/tmp/reportkit-bundle-y/inductor-cache/inductor-spyre/0a1b2c3d_sdsc_fused_add_0_abcd1234/sdsc_0.json",
        "/somewhere/else.log"])
    assert spyre.ffdc_artifacts_in_bundle(report) == [
        ("fx", "model__0_inference_0.0/output_code.py"), ("sdsc", "0a1b2c3d_sdsc_fused_add_0_abcd1234/sdsc_0.json")]


OUTPUT_CODE = """
from torch_spyre._inductor.runtime import async_compile
sdsc_fused_mul_0 = async_compile.sdsc('sdsc_fused_mul_0', '''...''')
sdsc_fused_add_1 = async_compile.sdsc('sdsc_fused_add_1', '''...''')


def call(args):
    sdsc_fused_mul_0.run(buf0, arg0_1)
    sdsc_fused_add_1.run(buf1, buf0)
"""


def test_affected_sdsc_through_output_code(tmp_path):
    """As the guide does: output_code.py names the kernels the failing graph launched, and each kernel's
    directory holds its sdsc_<index>.json."""
    cache = tmp_path / "cache" / "inductor-spyre"
    for kernel, fixture in (("sdsc_fused_mul_0", "fma/sdsc_0.json"), ("sdsc_fused_add_1", "fma/sdsc_1.json"),
                            ("sdsc_other_2", "add/sdsc_0.json")):
        d = cache / f"0a1b2c3d_{kernel}_abcd1234"
        d.mkdir(parents=True)
        shutil.copy(FIXTURES / fixture, d / Path(fixture).name)
    code = tmp_path / "output_code.py"
    code.write_text(OUTPUT_CODE)
    assert spyre.output_code_kernels(str(code)) == ["sdsc_fused_mul_0", "sdsc_fused_add_1"]
    summaries = [spyre.parse_sdsc(p) for k in spyre.find_spyre_artifacts(tmp_path / "cache") for p in k.sdsc_paths]
    graph = type("Graph", (), {"name": "model__0_inference_0.0", "output_code": str(code), "sources": [],
                               "ops": []})()
    clues = type("Clues", (), {"ops": ["add"], "script_lines": []})()
    chosen, why = spyre.select_sdsc(summaries, clues, graph)
    assert [s.path.parent.name for s in chosen] == ["0a1b2c3d_sdsc_fused_add_1_abcd1234"]
    assert why == ["launched by model__0_inference_0.0's output_code.py", "op(s) add named in the error"]


# ---------------------------------------------------------------------------
# unified logging: multi-line records
# ---------------------------------------------------------------------------

# As torch_spyre/logging_config.py's formatter and the C++ LogStream write records whose message has newlines
MULTI_LINE_STDERR = """\
[DEBUG] [spyre.inductor.lowering] lowering aten.add.Tensor:
  in  [8] torch.float32
  in  [8] torch.float32
[DEBUG] [spyre.runtime] 2026-03-04 10:11:12 generate_dci: DataConversionInfo: {
"dci_dsName_": "DCI-Tensor-0",
"input_shape_": [8]
}
[INFO] [httpx] HTTP Request: GET https://example.com
  an indented line of another library's record
Traceback (most recent call last):
  File "repro.py", line 3, in <module>
RuntimeError: boom
"""


def test_multi_line_records_are_one_record_each():
    records = spyre.parse_debug_log("", MULTI_LINE_STDERR)
    assert [(r.component, r.function, r.line_no) for r in records] == [
        ("spyre.inductor.lowering", None, 1), ("spyre.runtime", "generate_dci", 4)]
    assert records[0].message == "lowering aten.add.Tensor:\n  in  [8] torch.float32\n  in  [8] torch.float32"
    assert records[1].message.endswith('"input_shape_": [8]\n}')
    assert "another library" not in records[1].raw and "Traceback" not in records[0].raw + records[1].raw


def test_an_indented_user_line_after_a_cpp_debug_print_is_not_its_continuation():
    (record,) = spyre.parse_debug_log(debuginfo("synchronize", "stream 0") + "\n    user output\n", "")
    assert record.message == "stream 0"


# ---------------------------------------------------------------------------
# the Spyre stack as upstream's CI identifies it, PF/VF
# ---------------------------------------------------------------------------


def _fake_rpm(bin_dir: Path, installed: dict) -> None:
    """An `rpm -q NAME...` answering like rpm: the NEVRA, or "package NAME is not installed" (exit 1)."""
    cases = "".join(f'    {name}) echo "{nevra}";;\n' for name, nevra in installed.items())
    bin_dir.mkdir(parents=True)
    (bin_dir / "rpm").write_text(f'#!/bin/sh\n[ "$1" = -q ] || exit 2\nshift\nrc=0\nfor p in "$@"; do\n'
                                 f'  case "$p" in\n{cases}    *) echo "package $p is not installed"; rc=1;;\n'
                                 f'  esac\ndone\nexit $rc\n')
    (bin_dir / "rpm").chmod(0o755)


def test_spyre_stack_stamp_rpms_and_device_mode(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "spyre_artifact.json").write_text(json.dumps(
        {"artifact_id": "2b397099-6200-52fb-98c4-b603961a0582", "component": "torch-spyre", "deps": {"x": 1}}))
    _fake_rpm(tmp_path / "bin", {"ibm-deeptools": "ibm-deeptools-2.0.0-0.main.1+2457.d868b05_0.el10.x86_64"})
    stack = spyre.spyre_stack({"HOME": str(home), "PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "FLEX_DEVICE": "pf",
                               "PCIDEVICE_IBM_COM_AIU_PF": "0000:1a:00.0,0000:1b:00.0"})
    assert stack.stamp_file == str(home / "spyre_artifact.json") and stack.stamp["component"] == "torch-spyre"
    assert spyre.stamp_summary(stack.stamp) == ("artifact_id `2b397099-6200-52fb-98c4-b603961a0582`, component "
                                                "`torch-spyre` (and deps)")
    assert stack.rpms == {"ibm-deeptools": "ibm-deeptools-2.0.0-0.main.1+2457.d868b05_0.el10.x86_64",
                          "ibm-flex": None}
    assert stack.rpm_source == "rpm -q" and stack.device_mode == "PF"
    assert spyre.device_mode_text(stack) == ("PF (physical function; `FLEX_DEVICE=pf`); 2 card(s) in "
                                             "`PCIDEVICE_IBM_COM_AIU_PF`: 0000:1a:00.0, 0000:1b:00.0")


def test_spyre_stack_older_image_without_rpm(tmp_path):
    """Before the JSON stamp: a bare id; without rpm: the image's installed_rpms.txt."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "spyre_artifact_id.txt").write_text("2B397099-6200-52FB-98C4-B603961A0582\n")
    (home / "installed_rpms.txt").write_text("bash-5.2-1.x86_64\nibm-flex-2.0.0-0.main.1+388.81385a4_0.el10.x86_64\n")
    stack = spyre.spyre_stack({"HOME": str(home), "PATH": str(tmp_path / "nothing"), "FLEX_DEVICE": "VFIO"})
    assert stack.stamp == {"artifact_id": "2B397099-6200-52FB-98C4-B603961A0582"}
    assert stack.rpm_reason == "`rpm` is not installed"
    assert stack.rpms["ibm-flex"] == "ibm-flex-2.0.0-0.main.1+388.81385a4_0.el10.x86_64"
    assert stack.rpm_source == str(home / "installed_rpms.txt")
    assert stack.device_mode is None and "neither PF nor VF" in spyre.device_mode_text(stack)
    assert "`FLEX_DEVICE` is not set" in spyre.device_mode_text(spyre.SpyreStack())


# ---------------------------------------------------------------------------
# step 5: the OpSpec capture of the checkout
# ---------------------------------------------------------------------------


def test_capture_script_of_the_checkout(tmp_path):
    pkg = type("Pkg", (), {"location": str(FIXTURES / "fake" / "torch_spyre"), "git": None})()
    capture = spyre.find_capture(pkg)
    assert capture == FIXTURES / "fake" / "tests" / "op_specs" / "capture.py"
    assert spyre.capture_command(capture, "my repro.py") == f"python {capture} 'my repro.py' --out captured/"
    wheel = type("Pkg", (), {"location": str(tmp_path / "site-packages" / "torch_spyre"), "git": None})()
    assert spyre.find_capture(wheel) is None
    assert spyre.capture_command(None, "r.py") == (
        "python '<your torch-spyre checkout>/tests/op_specs/capture.py' r.py --out captured/")


def test_capture_output_lines():
    """capture.py's "  <path>  (N OpSpec(s), M arg(s))" lines: the detail is whole (it has parentheses)."""
    m = spyre._CAPTURED_LINE.match("  captured/sdsc_fused_add_1.py  (3 OpSpec(s), 2 arg(s))")
    assert (m["path"], m["detail"]) == ("captured/sdsc_fused_add_1.py", "3 OpSpec(s), 2 arg(s)")
    assert spyre._CAPTURED_LINE.match("captured 2 kernel(s); writing 2") is None
