"""Names from outside become paths one way (`cpbot.core.safe_paths`): whatever a problem file, a site or
Competitive Companion calls a sample or a problem, `cpbot fetch -o` and `solve -o` create and change files
inside the folder they were given, and never through a symlink."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpbot.bot.app.problem_folder import problem_dirname, save_problem
from cpbot.bot.cli.main import main
from cpbot.core.safe_paths import MAX_COMPONENT, OutsideFolder, component, inside, is_plain, write_inside
from cpbot.judge.model import Problem, TestCase
from cpbot.judge.testdir import file_names_of, load_tests_dir

# names a hostile or careless source may give a sample, a test or a problem
HOSTILE_NAMES = [
    "../../x", "../x", "..", ".", "/tmp/abs", "/", "a/../../b", "a/b", "a\\b", "x\x00y", "~", "~/x", "", " ",
    "..\\..\\x", "sample-1/../../../etc", "C:\\x", "-rf", "a" * 5000, "\u202e\u0645", "CON", ".hidden",
]  # fmt: skip


def _files_under(root: Path) -> set[Path]:
    return set(root.rglob("*"))


def _only_in(folder: Path, created: set[Path]) -> bool:
    """Everything created is the folder, a folder on its way, or inside it."""
    return all(p.is_relative_to(folder) or folder.is_relative_to(p) for p in created)


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None, derandomize=True)
def test_every_name_becomes_one_plain_bounded_component(name):
    safe = component(name, "fallback")
    assert safe and len(safe) <= MAX_COMPONENT
    assert safe not in (".", "..") and "/" not in safe and "\\" not in safe and "\x00" not in safe
    assert Path(safe).name == safe and not Path(safe).is_absolute()
    assert is_plain(safe) and component(safe, "other") == safe  # plain names stay as they are


def test_long_names_stay_apart():
    assert component("a" * 200 + "1", "f") != component("a" * 200 + "2", "f")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_sample_of_any_name_is_written_inside_the_tests_folder(tmp_path, name):
    out = tmp_path / "deep" / "problem"
    problem = Problem(id="local:x", site="local", title="T", samples=[TestCase(input="1\n", output="2\n", name=name)])
    before = _files_under(tmp_path)
    save_problem(problem, out)
    created = _files_under(tmp_path) - before
    assert created and _only_in(out, created)
    (test,) = load_tests_dir(out / "tests")
    assert test.input == "1\n" and test.output == "2\n"
    assert json.loads((out / "problem.json").read_text())["samples"][0]["name"] == name  # the original, kept


def test_fetch_of_a_problem_file_with_escaping_sample_names_writes_only_inside_the_folder(tmp_path):
    names = ["../../x", "/tmp/cpbot-escape-test", "../problem.json", "a/b", "sample-1", "sample-1"]
    samples = [{"input": f"{i}\n", "output": f"{i}\n", "name": n} for i, n in enumerate(names)]
    source = tmp_path / "in" / "problem.json"
    source.parent.mkdir()
    source.write_text(json.dumps({"title": "T", "statement": "S", "samples": samples}))
    out = tmp_path / "a" / "b" / "out"
    before = _files_under(tmp_path)
    assert main(["fetch", str(source), "-o", str(out)]) == 0
    created = _files_under(tmp_path) - before
    assert _only_in(out, created), sorted(map(str, created))
    assert not Path("/tmp/cpbot-escape-test.in").exists()
    written = sorted(p.name for p in (out / "tests").iterdir())
    assert len(written) == 2 * len(names)  # every sample kept, the two `sample-1` apart
    assert [t.input for t in load_tests_dir(out / "tests")] != []


def test_test_file_names_are_distinct_even_when_names_collide():
    tests = [TestCase(input="", name=n) for n in ("a/b", "a_b", "A_B", "", "")]
    names = file_names_of(tests, default_name="sample")
    assert len({n.lower() for n in names}) == len(names)


@pytest.mark.parametrize("pid", ["local:../../x", "codeforces:../../../etc", "leetcode:/abs", "x:..", "atcoder:"])
def test_a_problem_folder_name_is_one_plain_component(pid):
    name = problem_dirname(Problem(id=pid, site="local", title="t"))
    assert is_plain(name)


def test_a_symlinked_sample_file_is_never_written_through(tmp_path):
    outside = tmp_path / "precious.txt"
    outside.write_text("mine\n")
    out = tmp_path / "p"
    (out / "tests").mkdir(parents=True)
    (out / "tests" / "sample-1.in").symlink_to(outside)
    (out / "problem.json").symlink_to(outside)
    problem = Problem(id="local:x", site="local", title="T", samples=[TestCase(input="1\n", output="2\n")])
    with pytest.raises(OutsideFolder):
        save_problem(problem, out)
    assert outside.read_text() == "mine\n"
    # an old sample's link is removed, not written through; problem.json's is refused
    assert not (out / "tests" / "sample-1.in").is_symlink() and (out / "problem.json").is_symlink()


def test_fetch_beside_a_folder_whose_tests_lead_out_of_it(tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "sample-1.in").write_text("keep me\n")
    source = tmp_path / "problem.json"
    source.write_text(json.dumps({"title": "T", "samples": [{"input": "1\n", "output": "1\n"}]}))
    out = tmp_path / "out"
    out.mkdir()
    (out / "tests").symlink_to(elsewhere)
    assert main(["fetch", str(source), "-o", str(out)]) == 0
    assert (elsewhere / "sample-1.in").read_text() == "keep me\n"  # written beside: out-2
    assert (tmp_path / "out-2" / "tests" / "sample-1.in").read_text() == "1\n"
    assert main(["fetch", str(source), "-o", str(out), "--force"]) == 2  # forced: refused, not followed
    assert "leads out of" in capsys.readouterr().err
    assert sorted(os.listdir(elsewhere)) == ["sample-1.in"]


@pytest.mark.parametrize("relative", ["../x", "/etc/passwd", "a/../../x", ""])
def test_inside_refuses_names_that_leave_the_folder(tmp_path, relative):
    with pytest.raises(OutsideFolder):
        inside(tmp_path, relative)


def test_write_inside_refuses_a_symlink_even_one_pointing_inside(tmp_path):
    (tmp_path / "real").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(OutsideFolder, match="symlink"):
        write_inside(tmp_path, "link", b"y")
    assert (tmp_path / "real").read_text() == "x"


def test_write_inside_refuses_a_fifo_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "f")
    with pytest.raises(Exception, match="FIFO"):
        write_inside(tmp_path, "f", b"y")
