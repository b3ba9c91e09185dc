"""Compiler artifacts a run leaves where ``bundle`` collects evidence are the run's to shape (blind round 6 of
sandbox attacks): JSON nested two million deep (``json.loads`` dies of ``RecursionError``: ``bundle`` ended in a
traceback and wrote nothing), sparse files of gigabytes (read whole into memory), a directory where a file
should be. Each is read at most to a limit, as a regular file, and an error is one line of the evidence."""

from __future__ import annotations

import os

import pytest

from reportkit.io import RUN_FILE_LIMIT, load_artifact_json, read_artifact
from reportkit.report import spyre
from reportkit.report.collect import output_code_excerpt, read_compile_log

DEEP_LIST = "[" * 200_000 + "]" * 200_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


@pytest.mark.parametrize("text", [DEEP_LIST, DEEP_OBJECT])
def test_deeply_nested_json_is_a_value_error(tmp_path, text):
    path = tmp_path / "sdsc_0.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="nested too deep"):
        load_artifact_json(path)
    assert spyre.parse_sdsc(path).error and "nested too deep" in spyre.parse_sdsc(path).error
    assert spyre.parse_spyrecode(path).error


def test_a_deep_ffdc_report_is_an_error_of_its_own(tmp_path):
    path = tmp_path / "ffdc_compile_20260314_090000_000001_42.json"
    path.write_text(DEEP_OBJECT)
    assert spyre.parse_ffdc_report(path).error


def _sparse(path, size: int) -> None:
    with open(path, "wb") as fh:
        fh.truncate(size)


def test_a_sparse_gigabyte_file_is_not_read_whole(tmp_path):
    big = tmp_path / "output_code.py"
    _sparse(big, 4 << 30)
    assert len(read_artifact(big)) == RUN_FILE_LIMIT
    assert output_code_excerpt(str(big)) == "" or len(output_code_excerpt(str(big))) < 1 << 20
    sdsc = tmp_path / "big_sdsc_1.json"
    _sparse(sdsc, 3 << 30)
    with pytest.raises(ValueError, match="larger than"):
        load_artifact_json(sdsc)
    assert "larger than" in spyre.parse_sdsc(sdsc).error


def test_a_directory_or_a_link_where_an_artifact_should_be(tmp_path):
    folder = tmp_path / "fx_graph_readable.py"
    (folder / "inner").mkdir(parents=True)
    with pytest.raises(OSError):
        read_artifact(folder)
    secret = tmp_path / "private.txt"
    secret.write_text("not for the bundle")
    link = tmp_path / "bundle.mlir"
    os.symlink(secret, link)
    with pytest.raises(OSError):
        read_artifact(link)
    assert spyre.parse_bundle_mlir(link).error
    assert output_code_excerpt(str(link)) == ""


def test_a_compile_log_with_a_deep_line_keeps_its_other_records(tmp_path):
    log = tmp_path / "compile.jsonl"
    log.write_text('{"event": "a"}\n' + DEEP_LIST + '\n{"event": "b"}\n')
    assert read_compile_log(log) == [{"event": "a"}, {"event": "b"}]


def test_a_linked_fx_graph_and_compile_log_are_not_read(tmp_path):
    from reportkit.report.collect import parse_fx_graph

    secret = tmp_path / "private.txt"
    secret.write_text("torch.ops.aten.secret_op.default\n")
    graph = tmp_path / "model__0_forward_0.0"
    graph.mkdir()
    os.symlink(secret, graph / "fx_graph_readable.py")
    assert parse_fx_graph(graph, 0).ops == []
    os.symlink(secret, tmp_path / "compile.jsonl")
    assert read_compile_log(tmp_path / "compile.jsonl") == []
