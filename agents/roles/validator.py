"""The input validator the test designer writes, checked before any input is judged by it (AutoCode,
CodeContests+; testlib's validators).

The designer writes it in the same reply as the inputs, the generator and the brute force (one call), from
the statement's constraints: it reads one input on stdin, exits 0 when the input is valid and non-zero
with a message when it is not, and on a valid input prints `seen NAME LOW HIGH` for each bounded quantity
(the names `problem_bounds` read from the statement, listed in the prompt), which `judge.validator`
turns into bound coverage.

It is trusted only after a self-check built here from the samples and the parsed bounds, never from the
model: it must accept every sample input and reject near-invalid variants of them (a value one past a
bound, a negative value where every bound starts at 0 or more, a missing or an extra token, a leading
zero, an empty input; for a function problem, whose input is one JSON value per argument and line: an
argument left out, an extra one, a number past every bound). A validator that fails is discarded with the
first variant it got wrong; the solve then falls back to the shape check and says that its inputs were not
validated. Problems that are stressed get one (stdio and function problems; not interactive ones).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from cpbot.agents.roles.constraints import Bounds, problem_bounds
from cpbot.judge.build import build_solution
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import Program
from cpbot.judge.model import Problem, Solution
from cpbot.judge.sandbox import Sandbox
from cpbot.judge.validator import run_validator

MUTATED_SAMPLES = 2  # samples the variants are made from (each gives up to 7)
MAX_BOUND = 10**18  # a bound above this is not a number a variant can step past
_INT = re.compile(r"^-?\d+$")
_PLAIN_POSITIVE = re.compile(r"^[1-9]\d*$")


class Mutation(BaseModel):
    """A near-invalid variant of a sample input: what was changed, and the text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    what: str
    text: str


class CheckedValidator(BaseModel):
    """The self-check's outcome: the validator (None when discarded) and what the check found."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    validator: Solution | None = None
    note: str  # "accepts 2 samples, rejects 9 variants" or why it was discarded


def applies(problem: Problem) -> bool:
    """Whether a validator is asked for: problems that are stressed (stdio and function ones)."""
    return problem_kind(problem.kind).stress_applies


def quantities(problem: Problem) -> str:
    """The bounded quantities the validator reports, one line each (for the prompt)."""
    bounds = problem_bounds(problem)
    lines = []
    for name, high in bounds.upper.items():
        low = bounds.lower.get(name)
        lines.append(f"- {name}: {'' if low is None else f'{low} <= '}{name} <= {high}")
    return "\n".join(lines) or "- (none could be read from the statement; report none)"


# ---- variants --------------------------------------------------------------------------------------


def _tokens(text: str) -> list[re.Match[str]]:
    return list(re.finditer(r"\S+", text))


def _replace(text: str, token: re.Match[str], value: str) -> str:
    return text[: token.start()] + value + text[token.end() :]


def _value_bound(bounds: Bounds) -> tuple[str, int | None, int] | None:
    """The one bound of an indexed quantity (a_i, x[i]) when the statement has exactly one: the bound a
    variant can step past on a value token without knowing the format."""
    indexed = [(n, v) for n, v in bounds.upper.items() if re.search(r"_|\[", n) and abs(v) <= MAX_BOUND]
    if len(indexed) != 1:
        return None
    name, high = indexed[0]
    return name, bounds.lower.get(name), high


def mutations(problem: Problem) -> list[Mutation]:
    """Variants of the sample inputs that no valid input can be (see the module's docstring)."""
    bounds = problem_bounds(problem)
    samples = [s.input for s in problem.samples if s.input.strip()]
    all_tokens = [t for s in samples for t in s.split()]
    numeric = bool(all_tokens) and all(_INT.match(t) for t in all_tokens)
    nonnegative = numeric and all(not t.startswith("-") for t in all_tokens)
    plain = numeric and all(not (len(t.lstrip("-")) > 1 and t.lstrip("-").startswith("0")) for t in all_tokens)
    lows = list(bounds.lower.values())
    never_negative = bool(lows) and min(lows) >= 0 and nonnegative
    single = _value_bound(bounds)
    uppers = [v for v in bounds.upper.values() if abs(v) <= MAX_BOUND]
    out: list[Mutation] = [Mutation(what="an empty input", text="")]
    for text in samples[:MUTATED_SAMPLES]:
        if problem_kind(problem.kind).wrapped:
            out += _argument_mutations(text, uppers)
            continue
        tokens = _tokens(text)
        if not numeric or not tokens:
            continue
        first, last = tokens[0], tokens[-1]
        out.append(Mutation(what="the last value removed", text=text[: last.start()].rstrip() + "\n"))
        out.append(Mutation(what="an extra value at the end", text=text.rstrip("\n") + " 1\n"))
        if never_negative and _PLAIN_POSITIVE.match(first.group()):
            out.append(Mutation(what="the first value made negative", text=_replace(text, first, f"-{first.group()}")))
        if plain and _PLAIN_POSITIVE.match(first.group()):
            out.append(
                Mutation(what="a leading zero on the first value", text=_replace(text, first, f"0{first.group()}"))
            )
        if bounds.tests_var and (t_max := bounds.upper.get(bounds.tests_var)) is not None:
            out.append(
                Mutation(
                    what=f"{bounds.tests_var} one past its bound {t_max}", text=_replace(text, first, str(t_max + 1))
                )
            )
        if single is not None and len(tokens) > 1:
            name, low, high = single
            # the values usually follow the first line ("n" then "a_1 ... a_n"): its second line's last value
            start = text.find("\n") + 1
            end = text.find("\n", start) if start else -1
            second = [t for t in tokens if start and start <= t.start() < (end if end >= 0 else len(text))]
            value_token = second[-1] if second else last
            value = int(value_token.group())
            if (low is None or value >= low) and value <= high:
                out.append(
                    Mutation(
                        what=f"a value one past the bound {name} <= {high}",
                        text=_replace(text, value_token, str(high + 1)),
                    )
                )
                if low is not None and (low > 0 or never_negative):
                    out.append(
                        Mutation(
                            what=f"a value one below the bound {low} <= {name}",
                            text=_replace(text, value_token, str(low - 1)),
                        )
                    )
        elif uppers and len(tokens) > 1:
            top = max(uppers) + 1
            out.append(Mutation(what=f"the last value above every bound ({top})", text=_replace(text, last, str(top))))
    seen = {s for s in samples}
    unique: dict[str, Mutation] = {}
    for m in out:
        if m.text not in seen and m.text not in unique:
            unique[m.text] = m
    return list(unique.values())


def _argument_mutations(text: str, uppers: list[int]) -> list[Mutation]:
    """Variants of a function problem's input (one JSON value per argument, a line each)."""
    lines = [line for line in text.splitlines() if line.strip()]
    out = [Mutation(what="an extra argument", text="\n".join([*lines, "1"]) + "\n")]
    if len(lines) > 1:
        out.append(Mutation(what="the last argument left out", text="\n".join(lines[:-1]) + "\n"))
    numbers = list(re.finditer(r"-?\d+", text))
    if uppers and numbers:
        top = max(uppers) + 1
        out.append(
            Mutation(what=f"the last number above every bound ({top})", text=_replace(text, numbers[-1], str(top)))
        )
    return out


# ---- the self-check --------------------------------------------------------------------------------


def self_check(program: Program, problem: Problem, sandbox: Sandbox) -> str | None:
    """Why `program` cannot serve as the validator (a sample it rejects, a variant it accepts), or None."""
    for i, sample in enumerate(problem.samples, start=1):
        if not sample.input.strip():
            continue
        verdict = run_validator(program, sample.input.encode(), sandbox)
        if not verdict.checked:
            return f"it fails on sample {i}: {verdict.message}"
        if not verdict.valid:
            return f"it rejects sample {i} ({verdict.message})"
    for m in mutations(problem):
        verdict = run_validator(program, m.text.encode(), sandbox)
        if verdict.valid:
            return f"it accepts a sample with {m.what}"
    return None


def check_validator(validator: Solution | None, problem: Problem, sandbox: Sandbox) -> CheckedValidator:
    """The validator if it builds and passes the self-check; else None with the reason."""
    if not applies(problem):
        return CheckedValidator(note=f"no validator for a {problem.kind} problem: inputs checked for shape only")
    if validator is None:
        return CheckedValidator(note="no validator in the reply: inputs checked for shape only")
    build = build_solution(validator, sandbox)
    if build.program is None:
        return CheckedValidator(note=f"validator discarded: it does not build ({build.log.strip()[:200]})")
    why = self_check(build.program, problem, sandbox)
    if why:
        return CheckedValidator(note=f"validator discarded: {why}; inputs checked for shape only")
    samples = sum(1 for s in problem.samples if s.input.strip())
    return CheckedValidator(
        validator=validator, note=f"validator accepts {samples} samples and rejects {len(mutations(problem))} variants"
    )
