"""The LeetCode checker: parse the expected answer and the output as LeetCode values and compare them.

Structure must match exactly; numbers that are not both integers match within 1e-5 (absolute or
relative); a problem whose statement accepts the answer "in any order" compares the outer list as
a multiset; a design problem compares the list of per-call results and names the first call that
differs.

Problems that accept several different answers need a special judge, which a comparison with one
reference answer cannot replace. For them the checker says what it can establish: an output equal
to the reference is AC; any other output gets WA with a message starting with
`SPECIAL_JUDGE_PREFIX` and `needs_special_judge=True`, meaning "not confirmed", never "proved wrong".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cpbot.core.errors import JudgeError
from cpbot.judge.checkers.base import CheckInput, CheckResult
from cpbot.judge.harness.signature import parse_signature
from cpbot.judge.harness.values import FLOAT_TOLERANCE, BadValue, Mismatch, compare, deep_sorted, parse_value
from cpbot.judge.model import Diff, Problem, Signature, Verdict

SPECIAL_JUDGE_PREFIX = "special judge required"

# "Return the indices ... in any order." / "You may return the answer in any order." -- but not
# "rearrange the substrings in any order", which is about the input.
_ANY_ORDER = re.compile(r"\bin any order\b", re.I)
_ABOUT_ANSWER = re.compile(r"\b(?:return|returned|answer|output)\b", re.I)
# "If there are multiple solutions, return any of them." / "you can choose any one answer".
_SEVERAL_ANSWERS = re.compile(
    r"\b(?:multiple|several|more than one)\s+(?:valid\s+|possible\s+|correct\s+)?"
    r"(?:answers?|solutions?|results?|outputs?)\b.*\bany\b(?!\s+order)"
    r"|\b(?:return|output|print|choose)\s+any\s+(?:of|one|valid|possible|such|correct)\b",
    re.I,
)
# AtCoder's Japanese: "条件を満たすものが複数存在する場合、そのいずれかを出力してください",
# "どれを出力しても正解となります"
_SEVERAL_ANSWERS_JA = re.compile(
    r"複数.{0,40}(?:場合|とき).{0,40}(?:いずれか|どれ(?:を出力して)?も)|どれを出力しても(?:正解|構いません|かまいません|よい)"
)
# "Returns a random element ... Each element must have the same probability of being returned."
_RANDOM_ANSWER = re.compile(r"\breturns? a random\b", re.I)
# an equal chance said of the answer ("each index should have an equal probability of returning"), not of a random
# process the statement describes ("a pair is chosen uniformly at random; print the probability that ...")
_EQUAL_CHANCE = re.compile(r"\b(?:same|equal) probability\b|\bequally likely\b|\buniformly at random\b", re.I)
_OF_THE_ANSWER = re.compile(r"\b(?:return|returns|returned|returning|output|outputs|picked)\b", re.I)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_EMPHASIS = re.compile(r"[*`]+")


@dataclass(frozen=True)
class HarnessCheckResult(CheckResult):
    """A `CheckResult` that also says when only a special judge could decide."""

    needs_special_judge: bool = False


class HarnessChecker:
    """Compares LeetCode values (the `Checker` protocol of judge/checkers/base.py)."""

    name = "leetcode"

    def __init__(
        self, signature: Signature, any_order: bool = False, special: bool = False, tolerance: float = FLOAT_TOLERANCE
    ) -> None:
        self.signature = signature
        self.tolerance = tolerance  # floats within it are equal (0: only equal values)
        parsed = parse_signature(signature)
        self.design = parsed.kind == "design"
        self.any_order = any_order and not self.design
        self.special = special
        judged = None if self.design else parsed.method.ret
        if judged is not None and judged.is_void and parsed.method.params:
            judged = parsed.method.params[0][1]
        # old statements give a string or character answer without quotes
        self.bare_text_answer = judged is not None and judged.kind in ("string", "character")

    def check(self, files: CheckInput) -> CheckResult:
        """AC, WA (with the first difference), PE for output that is not a value, IE for a bad answer."""
        answer = files.answer().decode("utf-8", "replace").strip()
        if self.bare_text_answer and answer and not answer.startswith('"') and "\n" not in answer:
            expected: Any = answer
        else:
            try:
                expected = parse_value(answer)
            except BadValue as e:
                return CheckResult(Verdict.IE, f"the expected answer is not a LeetCode value: {e}")
        output = files.output().decode("utf-8", "replace")
        if not output.strip():
            return CheckResult(Verdict.WA, "no output")
        try:
            got = parse_value(output)
        except BadValue as e:
            return CheckResult(Verdict.PE, f"the output is not one LeetCode value: {e}")
        if self.design and not isinstance(expected, list):
            return CheckResult(Verdict.IE, "the expected answer of a design problem is not a list of results")
        if self.design and not isinstance(got, list):
            return CheckResult(Verdict.WA, "the output of a design problem must be a list of results")
        mismatch = compare(expected, got, any_order=self.any_order, tol=self.tolerance)
        if mismatch is not None and self.any_order and compare(deep_sorted(expected), deep_sorted(got)) is None:
            # Group anagrams accepts any order inside each group, permutations do not; the
            # statement does not say which, so this cannot be confirmed either way.
            return HarnessCheckResult(
                Verdict.WA,
                f"{SPECIAL_JUDGE_PREFIX}: the output has the expected elements only if the order inside each "
                "element is free too; it was not verified",
                needs_special_judge=True,
            )
        if mismatch is None:
            if self.special:
                return HarnessCheckResult(Verdict.AC, "matches the reference answer (other answers may be valid too)")
            return CheckResult(Verdict.AC, "ok")
        message = self._describe(mismatch, files)
        diff = Diff(
            line=1,
            token=None if mismatch.index is None else mismatch.index + 1,
            expected=mismatch.expected,
            got=mismatch.got,
        )
        if self.special:
            return HarnessCheckResult(
                Verdict.WA,
                f"{SPECIAL_JUDGE_PREFIX}: the output differs from the reference answer ({message}), "
                "but this problem accepts other answers; it was not verified",
                diff,
                needs_special_judge=True,
            )
        return CheckResult(Verdict.WA, message, diff)

    def _describe(self, mismatch: Mismatch, files: CheckInput) -> str:
        if not self.design or mismatch.index is None:
            return mismatch.describe()
        ops = _operations(files)
        name = f" ({ops[mismatch.index]})" if mismatch.index < len(ops) else ""
        return f"call {mismatch.index}{name}: {mismatch.describe()}"


def _operations(files: CheckInput) -> list[Any]:
    """The operation names of a design test (its first input line), for messages only."""
    try:
        first = files.input().decode("utf-8", "replace").split("\n", 1)[0]
        ops = parse_value(first)
    except (BadValue, OSError):
        return []
    return ops if isinstance(ops, list) else []


def accepts_any_order(statement: str) -> bool:
    """Whether the statement lets the answer come in any order ("return ... in any order")."""
    plain = _EMPHASIS.sub("", statement)
    return any(_ANY_ORDER.search(s) and _ABOUT_ANSWER.search(s) for s in _SENTENCES.split(plain))


def needs_special_judge(problem: Problem) -> bool:
    """Whether several different answers are accepted: the checker hint `special` (the LeetCode
    scraper sets it from `metaData.manual`), a method whose result is random (`getRandom`), or a
    statement that says to return any of several answers or a random one."""
    if problem.checker == "special":
        return True
    signature = problem.signature
    if signature is not None and any("random" in m.name.lower() for m in signature.methods):
        return True
    return accepts_several_answers(problem.statement)


def accepts_several_answers(text: str) -> bool:
    """Whether a statement (or its output section) says to return or print any of several answers, or a random
    one ("If there are several answers, print any of them.", AtCoder's "複数ある場合、いずれかを出力")."""
    plain = _EMPHASIS.sub("", text)
    sentences = _SENTENCES.split(plain)
    patterns = (_SEVERAL_ANSWERS, _RANDOM_ANSWER, _SEVERAL_ANSWERS_JA)
    random_answer = any(_EQUAL_CHANCE.search(s) and _OF_THE_ANSWER.search(s) for s in sentences)
    return random_answer or any(p.search(s) for s in sentences for p in patterns)


def checker_for(problem: Problem) -> HarnessChecker:
    """The checker of a function problem, with any-order and special-judge detection."""
    if problem.signature is None:
        raise JudgeError(f"problem {problem.id} has no signature", hint="function problems need one")
    return HarnessChecker(
        problem.signature,
        any_order=accepts_any_order(problem.statement),
        special=needs_special_judge(problem),
    )
