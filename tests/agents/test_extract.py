"""Reading code and JSON out of model replies: fences, languages, prose, truncation."""

from __future__ import annotations

import pytest

from cpbot.agents.extract import ExtractionError, extract_code, extract_json, find_blocks
from cpbot.core.errors import ModelError
from cpbot.judge.languages.cpp import cpp_is_cut
from cpbot.judge.languages.python import python_is_cut

CPP = (
    "#include <bits/stdc++.h>\nusing namespace std;\n"
    "int main() {\n    int a, b; cin >> a >> b;\n    cout << a + b;\n}\n"
)
PY = "a, b = map(int, input().split())\nprint(a + b)\n"


def fenced(code: str, tag: str = "", fence: str = "```") -> str:
    return f"{fence}{tag}\n{code}{fence}\n"


@pytest.mark.parametrize("tag", ["cpp", "c++", "C++", "cxx", "cc", ""])
def test_cpp_blocks_under_any_usual_label_or_none(tag):
    reply = f"Here is my solution.\n\n{fenced(CPP, tag)}\nIt runs in O(1)."
    got = extract_code(reply, "cpp17")
    assert got.code == CPP
    assert got.family == "cpp"
    assert got.tag == tag.lower()


@pytest.mark.parametrize("tag", ["python", "py", "python3", "Python", ""])
def test_python_blocks_under_any_usual_label_or_none(tag):
    got = extract_code(f"Solution:\n{fenced(PY, tag)}", "python3")
    assert got.code == PY
    assert got.family == "python"


def test_tilde_fences_and_longer_fences_containing_backticks():
    assert extract_code(fenced(CPP, "cpp", "~~~"), "cpp20").code == CPP
    inner = 'print("```")\nx = input()\nprint(x)\n'
    assert extract_code(fenced(inner, "python", "````"), "pypy3").code == inner


def test_the_last_complete_block_in_the_wanted_language_wins():
    first = CPP.replace("a + b", "a - b")
    reply = f"First try:\n{fenced(first, 'cpp')}\nOops, fixed:\n{fenced(CPP, 'cpp')}\nExample:\n{fenced('3 4', 'text')}"
    got = extract_code(reply, "cpp17")
    assert got.code == CPP
    assert got.block_index == 1
    assert got.blocks_found == 3
    assert any("2 C++ blocks" in n for n in got.notes)


def test_a_whole_program_is_preferred_over_a_later_snippet():
    snippet = "long long total = 0;\nfor (auto x : a) total += x;\n"
    reply = f"{fenced(CPP, 'cpp')}\nThe key part is:\n{fenced(snippet, 'cpp')}"
    assert extract_code(reply, "cpp17").code == CPP


def test_blocks_in_other_languages_are_skipped_when_the_wanted_one_is_there():
    reply = f"{fenced(CPP, 'cpp')}\nOr in Python:\n{fenced(PY, 'python')}"
    assert extract_code(reply, "cpp17").code == CPP
    assert extract_code(reply, "python3").code == PY


def test_sample_data_in_unlabelled_blocks_is_not_taken_for_code():
    sample_in, sample_out = fenced("2\n1 2\n"), fenced("3\n")
    reply = f"Input:\n{sample_in}\nCode:\n{fenced(PY)}\nOutput:\n{sample_out}"
    assert extract_code(reply, "python3").code == PY


def test_a_closing_fence_glued_to_the_last_line_is_understood():
    reply = "```cpp\n" + CPP.rstrip() + "```\nDone."
    assert extract_code(reply, "cpp17").code.rstrip() == CPP.rstrip()


def test_reasoning_sections_are_ignored():
    draft = CPP.replace("a + b", "a * b")
    reply = f"<think>maybe\n{fenced(draft, 'cpp')}</think>\nFinal:\n{fenced(CPP, 'cpp')}"
    assert extract_code(reply, "cpp17").code == CPP


# ---- failures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("reply", ["", "   \n", None])
def test_an_empty_reply_is_an_empty_failure(reply):
    with pytest.raises(ExtractionError) as e:
        extract_code(reply, "cpp17")
    assert e.value.reason == "empty"
    assert isinstance(e.value, ModelError)
    assert e.value.hint


def test_prose_without_code_is_a_no_code_failure():
    with pytest.raises(ExtractionError) as e:
        extract_code("Use a prefix sum over the array and answer each query in O(1).", "cpp17")
    assert e.value.reason == "no_code"
    assert "no code" in e.value.message
    assert "```cpp" in e.value.hint


def test_only_data_blocks_is_a_no_code_failure():
    with pytest.raises(ExtractionError) as e:
        extract_code(f"Input:\n{fenced('1 2', 'text')}\nOutput:\n{fenced('3')}", "python3")
    assert e.value.reason == "no_code"


def test_code_in_the_wrong_language_names_both_languages():
    java = "import java.util.*;\npublic class Main {\n  public static void main(String[] a) {\n    System.out.println(1);\n  }\n}\n"  # noqa: E501
    with pytest.raises(ExtractionError) as e:
        extract_code(fenced(java, "java"), "cpp17")
    assert e.value.reason == "wrong_language"
    assert "Java" in e.value.message and "C++" in e.value.message
    with pytest.raises(ExtractionError) as e:
        extract_code(fenced(CPP, "cpp"), "python3")
    assert e.value.reason == "wrong_language"
    assert "C++ code, not Python" in e.value.message
    with pytest.raises(ExtractionError) as e:
        extract_code(fenced(java), "cpp17")  # unlabelled, recognised
    assert e.value.reason == "wrong_language"


def test_an_unterminated_fence_with_cut_cpp_is_truncated():
    cut = CPP[: CPP.index("cout")]
    with pytest.raises(ExtractionError) as e:
        extract_code(f"Here:\n```cpp\n{cut}", "cpp17")
    assert e.value.reason == "truncated"
    assert "cut off" in e.value.message
    assert "max_tokens" in e.value.hint


def test_an_unterminated_fence_with_cut_python_is_truncated():
    with pytest.raises(ExtractionError) as e:
        extract_code("```python\nn = int(input())\nfor i in range(n):\n    print(max(i,\n", "python3")
    assert e.value.reason == "truncated"


def test_a_reply_stopped_for_length_inside_a_block_is_truncated_even_if_the_code_parses():
    with pytest.raises(ExtractionError) as e:
        extract_code(f"```python\n{PY}", "python3", finish_reason="length")
    assert e.value.reason == "truncated"
    assert "token limit" in e.value.message


def test_a_complete_program_missing_only_its_closing_fence_is_accepted_with_a_note():
    got = extract_code(f"```cpp\n{CPP}", "cpp17", finish_reason="stop")
    assert got.code == CPP
    assert "the closing fence was missing" in got.notes


def test_a_cut_revision_falls_back_to_the_last_complete_program():
    reply = f"{fenced(CPP, 'cpp')}\nA faster version:\n```cpp\n#include <cstdio>\nint main() {{\n  int a"
    got = extract_code(reply, "cpp17", finish_reason="length")
    assert got.code == CPP
    assert any("cut off" in n for n in got.notes)


def test_reasoning_that_never_ends_is_truncated():
    with pytest.raises(ExtractionError) as e:
        extract_code("<think>the constraints say n is up to", "cpp17", finish_reason="length")
    assert e.value.reason == "truncated"


def test_unfenced_programs_are_accepted_with_a_note():
    got = extract_code(f"Here is the code:\n{CPP}\nThis prints the sum.", "cpp17")
    assert got.code == CPP
    assert got.block_index == -1
    assert extract_code(PY, "python3").code == PY


def test_brace_counting_skips_strings_chars_comments_and_raw_strings():
    assert not cpp_is_cut("int main() { puts(\"{\"); char c = '{'; // {\n /* { */ }\n")
    assert not cpp_is_cut('auto s = R"x({{{)x"; int f() { return 0; }\n')
    assert cpp_is_cut("int main() {\n  for (;;) {\n")
    assert cpp_is_cut("int main() { /* unfinished comment\n")
    assert cpp_is_cut('int main() { puts("unfinished')


def test_python_cut_detection_only_flags_early_endings():
    assert python_is_cut("x = [1,\n")
    assert python_is_cut('s = """abc\n')
    assert python_is_cut("for i in range(3):\n")
    assert not python_is_cut(PY)
    assert not python_is_cut("x = = 1\nprint(x)\n")  # broken, but not cut off


def test_find_blocks_reports_completeness_and_language():
    blocks = find_blocks(f"{fenced(CPP, 'cpp')}text\n```python\nprint(1)")
    assert [(b.language, b.complete) for b in blocks] == [("cpp", True), ("python", False)]


# ---- JSON ----------------------------------------------------------------------------------------


def test_json_is_found_whole_fenced_or_inline():
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('Result:\n```json\n{"a": 2}\n```') == {"a": 2}
    assert extract_json('I choose {"a": 3, "b": {"c": [1, 2]}} because...') == {"a": 3, "b": {"c": [1, 2]}}
    assert extract_json('<think>{"a": 0}</think>{"a": 4}') == {"a": 4}


def test_no_json_is_a_no_json_failure():
    with pytest.raises(ExtractionError) as e:
        extract_json("no braces at all {not json}")
    assert e.value.reason == "no_json"
