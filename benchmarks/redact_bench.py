"""False positives and speed of reportkit's redaction edge (``reportkit/redact.py``) on texts without secrets.

A false positive is a ``<redacted:KIND>`` marker in the redacted text of something that holds no secret (the
home directory is left alone: ``home=""``). The sets:

``examples``   every file of ``examples/``: as text (``redact_text``; ``.md`` as markdown), and every ``.py``
               as code (``redact_code``: it must come out unchanged, and parse)
``corpus``     every file of ``benchmarks/corpus*/`` (scripts, case manifests, notes, patches, the
               BEFORE/AFTER JSONs with their outputs and messages), the same way
``logs``       stdout+stderr of the examples' and the corpus' scripts, run (``--logs python``: the ones that
               do not import torch, the default; ``all``: every one, slow; ``none``)
``synthetic``  torch version strings (``pip list``, ``collect_env``-like), git SHAs, UUIDs, digests, paths
               (site-packages, Inductor caches, reportkit's scratch dirs), pytest node ids, model names and
               argument lists (also through ``redact_argv``, part by part), generated from a fixed seed
``issue35``    the over-redactions issue 35 reported (``self.ntoken = ntoken``, ``--run-name Exp#12_A``,
               ``--prompt 'Describe the weather in Paris'``, the printed ``gh issue create`` title)

Printed: per set the texts, bytes, markers (false positives) and code files changed / not parsing, then
every false positive with its context (``--max-list N``). Speed: CPU time of ``redact_output`` on the
step-summary test's text (900 failures, ~1.3 MB of Markdown), on ci's JSON manifest of the same failures and on
a 2.3 MB log, and of importing the module in a new interpreter (every command's start), with the ``redact.py``
of ``--baseline REF`` (default ``main``, read with ``git show``) alongside; target <= 1.5x. ``--json OUT``
writes everything. Exit code 0 when there is no false positive and no code file changed, else 1.

    .venv/bin/python benchmarks/redact_bench.py
    .venv/bin/python benchmarks/redact_bench.py --logs all --json redact-bench.json
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reportkit import redact  # noqa: E402

MARKER = re.compile(r"<redacted(?::[\w\-]+)?>")


# --------------------------------------------------------------------------- the sets

def files_of(*roots: Path) -> list[Path]:
    skip = {".pyc", ".gz", ".png", ".jpg", ".pt", ".bin", ".npy"}
    return sorted(p for root in roots for p in root.rglob("*")
                  if p.is_file() and p.suffix not in skip and "__pycache__" not in p.parts)


def corpus_dirs() -> list[Path]:
    return sorted(p for p in (ROOT / "benchmarks").iterdir() if p.is_dir() and re.fullmatch(r"corpus\d*", p.name))


def run_targets(which: str, timeout: float) -> list[tuple[str, str]]:
    """(name, stdout+stderr) of the examples' and corpus' scripts, each run in a scratch copy of its directory."""
    if which == "none":
        return []
    jobs: list[tuple[str, Path, list[str]]] = []
    for ex in sorted((ROOT / "examples").iterdir()):
        if ex.is_dir():
            scripts = [p for p in ex.glob("*.py") if p.name not in ("minimal.py", "conftest.py")]
            jobs += [(f"examples/{ex.name}/{p.name}", ex, [p.name]) for p in scripts]
    for corpus in corpus_dirs():
        for case in sorted(p for p in corpus.iterdir() if (p / "case.json").is_file()):
            manifest = json.loads((case / "case.json").read_text())
            target, args = manifest["target"], [str(a) for a in manifest.get("args", [])]
            if "::" in target:
                jobs.append((f"{corpus.name}/{case.name}", case, ["-m", "pytest", "-q", "-p", "no:cacheprovider", target]))
            else:
                jobs.append((f"{corpus.name}/{case.name}", case, [target, *args]))

    def uses_torch(case: Path) -> bool:
        return any("torch" in p.read_text(errors="replace") for p in case.rglob("*.py"))

    if which == "python":
        jobs = [j for j in jobs if not uses_torch(j[1])]

    def run(job: tuple[str, Path, list[str]]) -> tuple[str, str]:
        name, case, argv = job
        with tempfile.TemporaryDirectory(prefix="redact-bench-") as tmp:
            work = Path(tmp) / case.name
            shutil.copytree(case, work)
            try:
                proc = subprocess.run([sys.executable, *argv], cwd=work, capture_output=True, text=True,
                                      timeout=timeout, errors="replace")
                return name, proc.stdout + proc.stderr
            except subprocess.TimeoutExpired as exc:  # a hang case: what it printed before
                out = exc.stdout or b""
                err = exc.stderr or b""
                text = (out.decode(errors="replace") if isinstance(out, bytes) else out) + \
                       (err.decode(errors="replace") if isinstance(err, bytes) else err)
                return name, text.replace(tmp, "/tmp/x")

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        return list(pool.map(run, jobs))


def synthetic(seed: int = 35) -> list[tuple[str, str]]:
    rng = random.Random(seed)

    def hexs(n: int) -> str:
        return "".join(rng.choice("0123456789abcdef") for _ in range(n))

    texts = []
    pkgs = ["torch 2.13.0+cpu", "torch 2.5.1+cu121", "torch 2.6.0.dev20241112+cu124", "torchvision 0.20.1+cu121",
            "torchaudio 2.5.1", "triton 3.1.0", "torch_spyre 0.0.1.dev42+g82dede8", "torch-sendnn 1.2.0",
            "numpy 1.26.4", "transformers 4.46.3", "accelerate 1.1.1", "nvidia-cudnn-cu12 9.1.0.70",
            "nvidia-cublas-cu12 12.4.5.8", "ibm-deeptools 1.0.0.dev20250101", "pytorch-triton-rocm 3.1.0+cf34004b8a"]
    texts.append(("pip list", "\n".join(f"{p.split()[0]:<32}{p.split()[1]}" for p in pkgs)))
    texts.append(("collect_env", "\n".join([
        "PyTorch version: 2.13.0+cpu", "Is debug build: False", "CUDA used to build PyTorch: None",
        "OS: Ubuntu 22.04.4 LTS (x86_64)", "GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0",
        "Python version: 3.11.7 (main, Dec 8 2023, 18:56:58) [GCC 11.4.0] (64-bit runtime)",
        "Python platform: Linux-6.8.0-1015-aws-x86_64-with-glibc2.35",
        f"torch.version.git_version: {hexs(40)}", "CPU: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
        "Versions of relevant libraries:", *[f"[pip3] {p.replace(' ', '==')}" for p in pkgs]])))
    texts.append(("git", "\n".join(f"commit {hexs(40)}\nAuthor: Dev <dev@example.com>\n    fix ({hexs(7)}, {hexs(12)})"
                                   for _ in range(50))))
    texts.append(("uuids", "\n".join(f"run {uuid.UUID(int=rng.getrandbits(128), version=4)} job "
                                     f"{uuid.UUID(int=rng.getrandbits(128), version=4).hex}" for _ in range(100))))
    texts.append(("digests", "\n".join(f"sha256:{hashlib.sha256(str(i).encode()).hexdigest()} "
                                       f"ghcr.io/org/img@sha256:{hexs(64)} md5 {hexs(32)} etag \"{hexs(32)}-2\""
                                       for i in range(60))))
    texts.append(("paths", "\n".join([
        *[f"/usr/lib/python3.11/site-packages/torch/_inductor/{m}.py" for m in ("graph", "scheduler", "codecache")],
        *[f"/tmp/torchinductor_root/{hexs(2)}/c{hexs(2)}{hexs(49)}.py" for _ in range(30)],
        *[f"/tmp/reportkit-session-{hexs(8)}/reportkit-{hexs(8)}/run-{hexs(8)}/work/repro.py" for _ in range(10)],
        *[f"/home/runner/work/proj/proj/.venv/lib/python3.11/site-packages/{p}/__init__.py"
          for p in ("numpy", "torch", "transformers", "safetensors")],
        "C:\\Users\\dev\\AppData\\Local\\Temp\\pytest-of-dev\\pytest-12\\test_x0\\data.csv",
        "~/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/" + hexs(40) + "/config.json",
        "/root/.triton/cache/" + hexs(64) + "/triton_poi_fused_add_mul_0.cubin"])))
    texts.append(("node ids", "\n".join([
        "tests/test_ops.py::TestClone::test_clone_65[float16-cpu]",
        "tests/test_parse.py::test_parse_valid_date[2012-12-19T23:21:28.512400+00:00-expected19]",
        "test/inductor/test_torchinductor.py::CpuTests::test_add_complex4_cpu",
        "tests/test_tokenizer.py::test_pad_token_is_set[bert-base-uncased]"])))
    models = ["ResNet50V2", "MobileNetV3", "EfficientNetB0", "Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct",
              "BertForSequenceClassification", "GPT2LMHeadModel", "DeBERTaV3Base", "Mixtral8x7BInstructV01",
              "ViTB16Patch224", "wav2vec2Base960h", "StableDiffusionXL10", "YOLOv8nSeg", "AdamW8bit"]
    argv = ["--model", rng.choice(models), "--run-name", "Exp#12_A", "--lr", "3e-4", "--device", "cuda:0",
            "--dtype", "bfloat16", "--seed", "1234", "--tag", "v1.2.3-rc1", "--out", "/data/runs/exp12",
            "--prompt", "Describe the weather in Paris", "--batch-size", "32", "--config", "configs/base.yaml",
            "--resume-from", f"ckpt/step-{rng.randint(1000, 9999)}.pt", "--wandb-project", "llm-ft",
            "--max-new-tokens", "128", "--num-tokens", "4096", "--tokenizer", "bert-base-uncased"]
    texts.append(("argv", " ".join(argv)))
    texts.append(("models", "\n".join(f"loading {m} ... ok ({rng.randint(1, 99)}.{rng.randint(0, 9)} s)"
                                      for m in models)))
    texts.append(("argv parts", "\0".join(redact.redact_argv(argv))))  # checked part by part below
    return texts


ISSUE35 = [
    ("fields", "class Decoder:\n    def __init__(self, ntoken):\n        self.ntoken = ntoken\n"),
    ("run line", "python train.py --run-name Exp#12_A --prompt 'Describe the weather in Paris'"),
    ("gh", "gh issue create --repo o/r --title 'RuntimeError: mat1 and mat2 shapes cannot be multiplied "
           "(train.py)' --body-file reportkit-bundle-train/issue.md"),
    ("tokenizer", 'tokenizer = AutoTokenizer.from_pretrained(name, pad_token="<pad>", use_auth_token=True)'),
]


# --------------------------------------------------------------------------- measuring

def false_positives(name: str, before: str, after: str) -> list[dict]:
    found = []
    for m in MARKER.finditer(after):
        lo, hi = max(0, m.start() - 50), min(len(after), m.end() + 50)
        found.append({"where": name, "marker": m.group(0), "context": after[lo:hi].replace("\n", "\\n")})
    extra = len(found) - len(MARKER.findall(before))
    return found if extra > 0 else []


def measure_set(label: str, texts: list[tuple[str, str]], code: list[tuple[str, str]]) -> dict:
    fps: list[dict] = []
    changed: list[str] = []
    broken: list[str] = []
    size = 0
    start = time.process_time()
    for name, text in texts:
        size += len(text)
        kind = redact.content_kind(name)
        out = redact.redact_markdown(text, home="") if kind == "markdown" else redact.redact_text(text, home="")
        fps += false_positives(name, text, out)
    for name, source in code:
        out = redact.redact_code(source, home="")
        if out != source:
            changed.append(name)
            fps += false_positives(name + " (code)", source, out)
        try:
            ast.parse(source)
        except SyntaxError:
            continue
        try:
            ast.parse(out)
        except SyntaxError:
            broken.append(name)
    return {"set": label, "texts": len(texts), "code_files": len(code), "bytes": size,
            "false_positives": len(fps), "code_changed": changed, "code_broken": broken, "list": fps,
            "cpu_s": round(time.process_time() - start, 2)}


def load_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def speed(baseline: str | None) -> dict:
    from reportkit.ci.ci import CiReport, Failure, summary_markdown

    failures = [Failure(key=str(i), tests=[f"tests/test_{i}.py::test_{'x' * 200}"] * 8, headline="E: " + "y" * 300,
                        verdict="confirmed", fingerprint=f"{i:016x}") for i in range(900)]
    report = CiReport(out_dir="/tmp", repo_root=".", junit=[], total_cases=900, failed_cases=900, failures=failures)
    md = summary_markdown(report)
    # the manifest as ci writes it (JSON of long test ids: a name rule once tried every split of each, 20+ s)
    manifest = json.dumps(report.to_manifest(), indent=2)
    line = ("[DEBUG] [spyre.runtime] 2026-03-04 10:11:12 spyre_copy_from: self (Half) is on: cpu "
            "/root/work/repro.py max_tokens=64 token=abc123 https://github.com/o/r\n")
    log = line * 15000
    modules = {"now": redact}
    if baseline:
        try:
            source = subprocess.run(["git", "show", f"{baseline}:reportkit/redact.py"], cwd=ROOT, check=True,
                                    capture_output=True, text=True).stdout
            path = Path(tempfile.mkdtemp(prefix="redact-bench-")) / "baseline_redact.py"
            path.write_text(source)
            spec = importlib.util.spec_from_file_location("baseline_redact", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)  # type: ignore[union-attr]
            modules = {baseline: module, "now": redact}
        except (subprocess.CalledProcessError, OSError, SyntaxError) as exc:
            print(f"(no baseline {baseline}: {exc})")
    out: dict = {}
    for name, text in (("step summary", md), ("ci manifest", manifest), ("log", log)):
        times: dict[str, list[float]] = {k: [] for k in modules}
        for _ in range(3):  # interleaved, best of 3: load from elsewhere hits both alike
            for label, module in modules.items():
                start = time.process_time()
                module.redact_output(text, home="")
                times[label].append(time.process_time() - start)
        out[name] = {"bytes": len(text), **{k: round(min(v), 3) for k, v in times.items()}}
    out["import"] = {"bytes": 0, **import_times(modules)}
    return out


def import_times(modules: dict) -> dict[str, float]:
    """CPU seconds a fresh interpreter takes to import each ``redact.py`` (from its compiled file, as an installed
    reportkit does; the second start, with detect-secrets' patterns cached): what every reportkit command pays."""
    import py_compile
    import resource

    paths = {}
    for label, module in modules.items():
        path = Path(tempfile.mkdtemp(prefix="redact-import-")) / f"{label.replace('/', '_')}_redact.py"
        shutil.copy(module.__file__, path)
        py_compile.compile(str(path), doraise=True)
        paths[label] = path
    times: dict[str, list[float]] = {k: [] for k in modules}
    for _ in range(6):
        for label, path in paths.items():
            code = (f"import importlib.util as u; s = u.spec_from_file_location('bench_redact', {str(path)!r}); "
                    "m = u.module_from_spec(s); s.loader.exec_module(m)")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[label].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {k: round(min(v[1:]), 3) for k, v in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", choices=("none", "python", "all"), default="python",
                        help="run the scripts for their logs: none, the ones without torch (default), all")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per script run (hang cases)")
    parser.add_argument("--baseline", default="main", help="git ref whose redact.py is timed alongside ('' none)")
    parser.add_argument("--max-list", type=int, default=40, help="false positives listed")
    parser.add_argument("--json", type=Path, help="write everything here")
    args = parser.parse_args(argv)

    sets = []
    ex_files = files_of(ROOT / "examples")
    sets.append(measure_set("examples", [(str(p.relative_to(ROOT)), load_text(p)) for p in ex_files],
                            [(str(p.relative_to(ROOT)), load_text(p)) for p in ex_files if p.suffix == ".py"]))
    co_files = files_of(*corpus_dirs())
    sets.append(measure_set("corpus", [(str(p.relative_to(ROOT)), load_text(p)) for p in co_files],
                            [(str(p.relative_to(ROOT)), load_text(p)) for p in co_files if p.suffix == ".py"]))
    logs = run_targets(args.logs, args.timeout)
    sets.append(measure_set(f"logs ({args.logs})", logs, []))
    synth = synthetic()
    parts = dict(synth)["argv parts"].split("\0")
    synth = [(n, t) for n, t in synth if n != "argv parts"]
    sets.append(measure_set("synthetic", synth, []))
    if any(MARKER.search(p) for p in parts):
        sets[-1]["false_positives"] += sum(bool(MARKER.search(p)) for p in parts)
        sets[-1]["list"] += [{"where": "redact_argv", "marker": p, "context": p} for p in parts if MARKER.search(p)]
    sets.append(measure_set("issue35", ISSUE35, [("fields.py", ISSUE35[0][1])]))

    print(f"{'set':<16}{'texts':>7}{'code':>6}{'MB':>8}{'false pos.':>12}{'code changed':>14}{'code broken':>13}"
          f"{'cpu s':>8}")
    for s in sets:
        print(f"{s['set']:<16}{s['texts']:>7}{s['code_files']:>6}{s['bytes'] / 1e6:>8.2f}{s['false_positives']:>12}"
              f"{len(s['code_changed']):>14}{len(s['code_broken']):>13}{s['cpu_s']:>8}")
    total_fp = sum(s["false_positives"] for s in sets)
    total_changed = sum(len(s["code_changed"]) for s in sets)
    print(f"{'total':<16}{sum(s['texts'] for s in sets):>7}{sum(s['code_files'] for s in sets):>6}"
          f"{sum(s['bytes'] for s in sets) / 1e6:>8.2f}{total_fp:>12}{total_changed:>14}"
          f"{sum(len(s['code_broken']) for s in sets):>13}")
    listed = [fp for s in sets for fp in s["list"]]
    for fp in listed[: args.max_list]:
        print(f"  FP {fp['where']}: {fp['marker']}  ...{fp['context']}...")
    for s in sets:
        for name in s["code_changed"][: args.max_list]:
            print(f"  code changed: {name}")
    timing = speed(args.baseline or None)
    print("speed (CPU s, best of 3, interleaved):")
    for name, t in timing.items():
        cols = ", ".join(f"{k} {v:.2f}" for k, v in t.items() if k != "bytes")
        ratio = ""
        if args.baseline and args.baseline in t:
            ratio = f" -> {t['now'] / t[args.baseline]:.2f}x (target <= 1.5x)"
        print(f"  {name} ({t['bytes'] / 1e6:.2f} MB): {cols}{ratio}")
    if args.json:
        args.json.write_text(json.dumps({"sets": sets, "speed": timing}, indent=2))
    return 0 if total_fp == 0 and total_changed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
