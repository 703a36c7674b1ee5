"""The prompt renderer and the shipped prompt files."""

from __future__ import annotations

from importlib import resources

import pytest

from cpbot.agents.prompts import PromptError, clip, fill, load_prompt, parse_prompt


def test_placeholders_are_filled_and_other_braces_stay_text():
    prompt = parse_prompt("t", '[system]\nYou are {who}.\n[user]\nReply {"a": 1} for {task}; {{task}} is literal.')
    messages = prompt.render(who="a tester", task="x")
    assert messages[0] == {"role": "system", "content": "You are a tester."}
    assert messages[1]["content"] == 'Reply {"a": 1} for x; {task} is literal.'


def test_values_are_inserted_once_never_rendered_again():
    assert fill("{code}", {"code": "int main() { return {x}; }"}) == "int main() { return {x}; }"


def test_a_missing_or_unused_value_is_an_error_naming_it():
    prompt = parse_prompt("t", "[system]\n{a}\n[user]\n{b}")
    with pytest.raises(PromptError, match="missing b"):
        prompt.render(a=1)
    with pytest.raises(PromptError, match="unused c"):
        prompt.render(a=1, b=2, c=3)


def test_a_prompt_without_both_sections_is_rejected():
    with pytest.raises(PromptError, match=r"\[system\] section followed by a \[user\]"):
        parse_prompt("bad", "[user]\nhello\n[system]\nhi")


def test_an_unknown_prompt_name_says_where_prompts_live():
    with pytest.raises(PromptError) as e:
        load_prompt("no-such-prompt")
    assert "templates/prompts" in e.value.hint


def test_every_shipped_prompt_parses_and_has_placeholders():
    folder = resources.files("cpbot.templates").joinpath("prompts")
    names = sorted(entry.name[:-4] for entry in folder.iterdir() if entry.name.endswith(".txt"))
    assert len(names) >= 10
    for name in names:
        prompt = load_prompt(name)
        assert prompt.system.strip() and prompt.user.strip(), name
        assert prompt.placeholders, f"{name} takes no input"


def test_clip_keeps_head_and_tail_and_says_what_was_cut():
    text = "".join(f"{i:05d}\n" for i in range(2000))
    short = clip(text, 600)
    assert short.startswith("00000\n") and short.endswith("01999\n")
    assert "characters left out" in short
    assert len(short) < 700
    assert clip("small", 600) == "small"
