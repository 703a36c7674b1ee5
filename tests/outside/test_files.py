"""Files from outside are read within bounds: tests are regular files (or symlinks staying inside the
tests folder) of at most `max_test_file_mb`, FIFOs and devices refused before anything could block;
compressed data is cut off while it unpacks; JSON nesting is bounded (a `CpbotError`, never a
`RecursionError`); a problem's limits are bounded."""

from __future__ import annotations

import base64
import gzip
import json
import os
import threading
import zlib

import pytest

from cpbot.bot.app.problem_folder import load_problem
from cpbot.bot.cli.config import load_settings
from cpbot.bot.cli.main import main
from cpbot.core import bounds
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.core.safe_paths import NotAFile, OutsideFolder
from cpbot.judge.model import Limits
from cpbot.judge.testdir import load_cf_tool_tests, load_tests_dir

DEEP = "[" * 100_000 + "]" * 100_000


def _within(seconds: float, function, *args):
    """The call's exception (or None), failing the test when it does not return in time (a blocked open)."""
    box: dict[str, BaseException | None] = {}

    def run() -> None:
        try:
            function(*args)
            box["error"] = None
        except BaseException as e:  # handed to the test
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert "error" in box, f"{function.__name__} did not return within {seconds} s"
    return box["error"]


def _tests_folder(tmp_path):
    folder = tmp_path / "tests"
    folder.mkdir()
    (folder / "a.in").write_text("1\n")
    (folder / "a.out").write_text("1\n")
    return folder


def test_a_fifo_test_is_refused_without_blocking(tmp_path):
    folder = _tests_folder(tmp_path)
    os.mkfifo(folder / "b.in")
    error = _within(10, load_tests_dir, folder)
    assert isinstance(error, NotAFile) and "FIFO" in error.message


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_symlink_to_a_device_is_refused(tmp_path, device):
    folder = _tests_folder(tmp_path)
    (folder / "b.in").symlink_to(device)
    error = _within(10, load_tests_dir, folder)
    assert isinstance(error, CpbotError)  # out of the folder, or a device: refused before any read


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_node_inside_the_folder_is_refused_without_reading(tmp_path):
    import stat

    folder = _tests_folder(tmp_path)
    os.mknod(folder / "z.in", stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero's own numbers
    error = _within(10, load_tests_dir, folder)
    assert isinstance(error, NotAFile) and "character device" in error.message


def test_a_device_answer_in_cf_tool_layout_is_refused(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "in1.txt").write_text("1\n")
    (folder / "ans1.txt").symlink_to("/dev/zero")
    assert isinstance(_within(10, load_cf_tool_tests, folder), CpbotError)


def test_a_symlink_out_of_the_tests_folder_is_refused_and_one_inside_is_read(tmp_path):
    folder = _tests_folder(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("private\n")
    (folder / "b.in").symlink_to(folder / "a.in")
    assert [t.name for t in load_tests_dir(folder)] == ["a", "b"]
    (folder / "c.in").symlink_to(secret)
    with pytest.raises(OutsideFolder):
        load_tests_dir(folder)


def test_a_test_past_the_bound_is_refused_naming_the_setting(tmp_path, monkeypatch):
    folder = _tests_folder(tmp_path)
    (folder / "big.in").write_bytes(b"1" * (2 * bounds.MB))
    monkeypatch.setenv("CPBOT_MAX_TEST_FILE_MB", "1")
    with pytest.raises(ConfigError, match="max_test_file_mb = 1 MB") as caught:
        load_tests_dir(folder)
    assert "CPBOT_MAX_TEST_FILE_MB" in caught.value.hint


def test_cpbot_judge_on_a_dev_zero_test_is_a_one_line_error(tmp_path, capsys):
    folder = _tests_folder(tmp_path)
    (folder / "z.in").symlink_to("/dev/zero")
    solution = tmp_path / "s.py"
    solution.write_text("print(input())\n")
    assert main(["judge", str(solution), "--tests", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err


def test_decompression_stops_at_the_bound(monkeypatch):
    monkeypatch.setenv("CPBOT_MAX_DECOMPRESSED_MB", "1")
    bomb = zlib.compress(b"\0" * (64 * bounds.MB), 9)
    with pytest.raises(ConfigError, match="max_decompressed_mb = 1 MB"):
        bounds.decompress(bomb, "a payload")
    assert bounds.decompress(zlib.compress(b"x" * 1000), "a payload") == b"x" * 1000


def test_an_lcb_zlib_bomb_is_refused_naming_the_bound(monkeypatch):
    from cpbot.bot.bench.livecodebench import decode_row

    monkeypatch.setenv("CPBOT_MAX_DECOMPRESSED_MB", "1")
    bomb = base64.b64encode(zlib.compress(b"\0" * (16 * bounds.MB), 9)).decode()
    row = {"question_id": "q1", "public_test_cases": "[]", "private_test_cases": bomb, "metadata": "{}"}
    with pytest.raises(ConfigError, match="max_decompressed_mb"):
        decode_row(row)


def test_a_gzipped_dataset_line_past_the_bound_is_refused(tmp_path, monkeypatch):
    from cpbot.judge.harness.dataset import iter_rows

    monkeypatch.setenv("CPBOT_MAX_DECOMPRESSED_MB", "1")
    path = tmp_path / "d.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"a": "' + b"x" * (4 * bounds.MB) + b'"}\n'))
    with pytest.raises(ConfigError, match="max_decompressed_mb"):
        list(iter_rows(path))


def test_json_nested_deeper_than_the_bound_is_a_parse_error_not_a_recursion_error():
    with pytest.raises(CpbotError, match="max_json_depth"):
        bounds.loads(DEEP, "x")
    with pytest.raises(CpbotError, match="max_json_depth"):
        bounds.loads("[" * 101 + "]" * 101, "x")
    assert bounds.loads("[" * 100 + "]" * 100, "x") is not None


@pytest.mark.parametrize("where", ["problem", "generations", "lcb", "dataset", "config"])
def test_deep_nesting_in_every_json_file_is_a_cpbot_error(tmp_path, where):
    path = tmp_path / "f.json"
    path.write_text(DEEP)
    with pytest.raises(CpbotError):
        if where == "problem":
            load_problem(path)
        elif where == "generations":
            from cpbot.bot.bench.grade import _load_items

            _load_items(path)
        elif where == "lcb":
            from cpbot.bot.bench.livecodebench import _summary_fields

            _summary_fields(DEEP.encode())
        elif where == "dataset":
            from cpbot.judge.harness.dataset import iter_rows

            path = tmp_path / "d.jsonl"
            path.write_text(DEEP + "\n")
            list(iter_rows(path))
        else:
            path = tmp_path / "config.toml"
            path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
            load_settings(path)


def test_the_input_table_of_config_sets_a_bound_and_the_environment_wins(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text("[input]\nmax_json_depth = 3\n")
    settings = load_settings(path)
    try:
        settings.apply_bounds()
        assert bounds.JSON_DEPTH.value() == 3
        monkeypatch.setenv("CPBOT_MAX_JSON_DEPTH", "7")
        assert bounds.JSON_DEPTH.value() == 7
    finally:
        bounds.configure({})
    path.write_text("[input]\nmax_pages = 3\n")
    with pytest.raises(ConfigError, match="no such setting"):
        load_settings(path).apply_bounds()


@pytest.mark.parametrize("time_ms", [int(1e300), 10**30, 601_000])
def test_a_time_limit_past_the_bound_is_refused(time_ms):
    with pytest.raises(ValueError, match="max_time_limit_s"):
        Limits(time_ms=time_ms)


def test_a_memory_limit_past_the_machine_is_judged_at_the_bound_with_a_warning(caplog, monkeypatch):
    monkeypatch.setenv("CPBOT_MAX_MEMORY_LIMIT_MB", "4096")
    assert Limits(memory_mb=10**12).memory_mb == 4096
    assert "max_memory_limit_mb" in caplog.text
    assert Limits(memory_mb=1024).memory_mb == 1024


def test_a_problem_file_with_absurd_limits_is_one_clear_error(tmp_path):
    path = tmp_path / "problem.json"
    path.write_text(json.dumps({"title": "t", "samples": [], "limits": {"time_ms": 1e300}}))
    with pytest.raises(ConfigError):
        load_problem(path)
