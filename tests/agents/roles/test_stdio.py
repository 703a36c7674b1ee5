"""The STD-IO template picker on real recorded problems, and the templates themselves."""

from __future__ import annotations

import pytest

from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.stdio import SHAPES, classify_input, load_template, pick_template, skeleton_for
from cpbot.judge.build import build_solution
from cpbot.judge.execute import execute
from cpbot.judge.languages.python import python_error
from cpbot.judge.model import Limits, Solution, TestCase
from tests.agents.roles.helpers import GYM, codeforces, leetcode, sum_problem


@pytest.mark.parametrize(
    ("page", "title", "shape"),
    [
        ("cf_1081E_old_br_3samples_prettified", None, "single"),
        ("cf_1766D_plain_newlines_4s_512mb", None, "single"),
        ("cf_630B_old_br_0.5s_64mb_tex_span", None, "single"),
        ("cf_1702A_modern_single_line_cases", None, "multi_line"),
        ("cf_1974A_modern_images", None, "multi_line"),
        ("cf_1986A_modern_bis_skin_checked_junk", None, "multi_line"),
        ("cf_2141A_modern_multiline_empty_output_line", None, "multi_block"),
        (GYM, "Spider-Man is Heartbroken", "multi_line"),  # no case split: read from the sample's lines
        (GYM, "The Flash and Reverse-Flash", "multi_block"),
        (GYM, "Quicksilver Lost His Power", "matrix"),
        (GYM, "The Bifrost", "matrix"),
        (GYM, "Odd Nick Fury", "matrix"),
        ("cf_gymstyle_ru_B_old_br_5samples", None, "matrix"),
        (GYM, "Batplane Missions", "single"),  # n lines of pairs: not a grid
        (GYM, "New Suits for The League of Assassins", "single"),
        (GYM, "Doctor Strange in the Library", "single"),
    ],
)
def test_real_problems_get_their_input_shape(page, title, shape):
    assert classify_input(codeforces(page, title)).shape == shape


def test_matrix_rows_are_told_apart_chars_from_numbers():
    assert classify_input(codeforces(GYM, "The Bifrost")).cells == "chars"
    assert classify_input(codeforces(GYM, "Quicksilver Lost His Power")).cells == "numbers"


def test_the_input_section_decides_when_samples_do_not_split():
    spec = "The first line contains $t$, the number of test cases. Each test case consists of one line with $n$."
    problem = sum_problem(input_spec=spec, samples=[])
    guess = classify_input(problem)
    assert guess.shape == "multi_line" and "input section" in guess.reason
    several = sum_problem(
        input_spec="The first line contains the number of test cases $t$. "
        "The first line of each test case contains $n$, the second line $n$ integers.",
        samples=[],
    )
    assert classify_input(several).shape == "multi_block"


def test_the_picker_returns_the_skeleton_for_the_language_family():
    problem = codeforces("cf_1702A_modern_single_line_cases")
    cpp = pick_template(problem, "cpp20")
    py = pick_template(problem, "pypy3")
    assert (cpp.name, cpp.family, py.name, py.family) == ("multi_line.cpp", "cpp", "multi_line.py", "python")
    assert "while (t--) solve();" in cpp.source
    assert "def solve(line: str)" in py.source


def test_interactive_problems_get_the_flushing_skeleton():
    template = pick_template(codeforces("cf_2220D2_interactive"), "python3")
    assert template.interactive and template.name == "interactive.py"
    assert "flush=True" in template.source
    assert any("flush" in note for note in template.notes)


def test_function_problems_have_no_stdio_template():
    with pytest.raises(RoleError, match="function problem"):
        pick_template(leetcode("lc_decode-ways_example_block"), "python3")


def test_skeleton_for_gives_none_where_the_kind_has_no_skeleton_and_the_picker_s_choice_elsewhere():
    assert skeleton_for(leetcode("lc_decode-ways_example_block"), "cpp17") is None
    problem = sum_problem()
    assert skeleton_for(problem, "cpp17") == pick_template(problem, "cpp17")


def test_every_python_template_compiles():
    for shape in (*SHAPES, "interactive"):
        assert python_error(load_template(f"{shape}.py")) is None, shape


RUNS = {
    # shape: an input the skeleton must read to the end without crashing
    "single": "3\n1 2 3\n",
    "multi_line": "2\n5\n7\n",
    "multi_block": "2\n1\n5\n2\n1 2\n",
    "matrix": "2 3\n#..\n..#\n",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_every_template_builds_and_runs_on_an_input_of_its_shape(shape, sandbox):
    for ext, language in (("py", "python3"), ("cpp", "cpp17")):
        build = build_solution(Solution(language=language, source=load_template(f"{shape}.{ext}")), sandbox)
        assert build.program is not None, build.log
        run = execute(build.program, RUNS[shape].encode(), sandbox, limits=Limits(time_ms=2000))
        assert run.verdict is None, (shape, language, run.message, run.stderr)


def test_no_samples_and_no_hints_means_single():
    assert classify_input(sum_problem(samples=[TestCase(input="")])).shape == "single"
