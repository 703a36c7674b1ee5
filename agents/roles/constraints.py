"""Reading the bounds out of a statement: `$1 \\le n \\le 2 \\cdot 10^5$`, `1 <= nums.length <= 10^4`,
`(1000 ≤ *n* ≤ 10 000)`, "the sum of $n$ over all test cases does not exceed $2 \\cdot 10^5$".

Deterministic and forgiving: a sentence it cannot read adds nothing; it never guesses a bound. The
pruner estimates a plan's cost from these bounds, the test generator sizes inputs with them.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from cpbot.judge.model import Problem

# A number: 200000, 200 000, 1,000,000, 2 * 10^5, 10^9, 1e5, 2.5 * 10^5, 500^3.
_NUM = (
    r"(?:\d+(?:\.\d+)?\s*\*\s*10\s*\^\s*\d+"
    r"|\d+\s*\^\s*\d+"
    r"|\d+(?:\.\d+)?e\d+"
    r"|\d{1,3}(?:(?: |,)\d{3})+(?![\d])"
    r"|\d+(?:\.\d+)?)"
)
# A bounded quantity: n, a_i, x_{i}, |s|, s.length, nums[i].length, heightMap[i][j], \sum n.
_VAR = r"(?:\|\w+\||(?:sum\s+)?[A-Za-z][\w]*(?:_\w+|\[\w+\])*(?:\.length)?(?:\[\w+\])*)"
_VARS = rf"{_VAR}(?:\s*,\s*{_VAR})*"
_LE = r"(?:<=|<)"

_CHAIN = re.compile(
    rf"(?<![\w.^])(?P<low>-?{_NUM})\s*(?P<r1>{_LE})\s*(?P<vars>{_VARS})\s*(?P<r2>{_LE})\s*(?P<high>-?{_NUM})"
)
_UPPER = re.compile(rf"(?<![\w.<=])(?P<vars>{_VARS})\s*(?P<r2>{_LE})\s*(?P<high>-?{_NUM})")
_SUM = re.compile(
    rf"sum\s+of\s+(?:all\s+)?(?:the\s+)?(?:values\s+of\s+)?(?P<vars>{_VAR}(?:\s+and\s+(?:the\s+)?sum\s+of\s+{_VAR})*)"
    rf"(?:\s+(?:over|for|across|in)\b[^.]*?)?\s+(?:will\s+|does\s+|must\s+|should\s+)?"
    rf"(?:not\s+exceed|doesn't\s+exceed|be\s+at\s+most|is\s+at\s+most|at\s+most|not\s+be\s+greater\s+than|<=|<)\s+"
    rf"(?P<high>{_NUM})",
    re.IGNORECASE,
)
_RANGE = re.compile(
    rf"number\s+of\s+(?P<what>\w+)[^.\[]*?\bin\s+the\s+range\s*\[\s*(?P<low>-?{_NUM})\s*,\s*(?P<high>{_NUM})\s*\]",
    re.IGNORECASE,
)
_CALLS = re.compile(rf"at\s+most\s+(?P<high>{_NUM})\s+calls", re.IGNORECASE)
_ALIAS = re.compile(rf"(?<![\w.])(?P<short>[A-Za-z]\w*)\s*==\s*(?P<long>{_VAR})")
_TESTS = re.compile(r"number of (?:test ?cases|tests|queries sets|scenarios)|multiple test|test cases", re.IGNORECASE)


class Bounds(BaseModel):
    """What a statement says about its sizes: upper bounds by name, sums over test cases, the test count."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    upper: dict[str, int] = {}
    lower: dict[str, int] = {}
    sums: dict[str, int] = {}  # "the sum of n over all test cases does not exceed ..."
    tests_var: str | None = None  # the name of the test count in a multi-test problem (t, T, q)

    def get(self, name: str) -> int | None:
        """The upper bound of `name`: exact, else ignoring case, else as `name.length` or `|name|`."""
        if name in self.upper:
            return self.upper[name]
        lowered = {k.lower(): v for k, v in self.upper.items()}
        for key in (name.lower(), f"{name.lower()}.length", f"|{name.lower()}|"):
            if key in lowered:
                return lowered[key]
        return None

    def sizes(self) -> dict[str, int]:
        """Bounds of things that are sizes, not values: no indexed names (a_i, x[i]), no huge numbers."""
        return {k: v for k, v in self.upper.items() if not re.search(r"_|\[", k) and 0 < v <= 10**7}

    def max_size(self) -> int | None:
        """The largest size bound other than the test count: the n a profiler should reach."""
        sizes = {k: v for k, v in self.sizes().items() if k != self.tests_var}
        return max(sizes.values(), default=None)


def normalize(text: str) -> str:
    """Statement text with LaTeX, Markdown and Unicode relations turned into plain `<=`, `*`, `^`."""
    text = re.sub(r"\*\*", "", text)
    text = re.sub(r"\*([A-Za-z][\w]*)\*", r"\1", text)  # *n* emphasis in old Codeforces pages
    text = text.replace("$", " ").replace("`", " ")
    replacements = [
        (r"\\leqslant|\\leq|\\le\b|≤|⩽", "<="),
        (r"\\geqslant|\\geq|\\ge\b|≥|⩾", ">="),
        (r"\\lt\b", "<"),
        (r"\\gt\b", ">"),
        (r"\\cdot|\\times|·|⋅|×|∙", "*"),
        (r"\\[,;:! ]|[\u2009\u202f\u00a0]|~", " "),
        (r"\\sum(?:_\{?[^}\s]*\}?)?", " sum "),
        (r"\\(?:left|right|mathrm|mathit|mathsf|text|operatorname)\b", ""),
        (r"\\(?:ldots|dots|cdots)", "..."),
        (r"\\\{|\\\}", ""),
    ]
    for pattern, repl in replacements:
        text = re.sub(pattern, repl, text)
    text = re.sub(r"\^\s*\{\s*(-?\d+)\s*\}", r"^\1", text)  # 10^{5}
    text = re.sub(r"_\{\s*(\w+)\s*\}", r"_\1", text)  # a_{i}
    text = re.sub(r"(\d)\s*\{\s*(\d)", r"\1\2", text)  # 1{,}000 leftovers
    return text


def parse_number(text: str) -> int:
    """An integer from a bound as written: 2 * 10^5, 10^9, 1e5, 200 000, 1,000,000, 500^3."""
    s = re.sub(r"\s+", "", text)
    negative = s.startswith("-")
    s = s.lstrip("-")
    if m := re.fullmatch(r"(\d+(?:\.\d+)?)\*10\^(\d+)", s):
        value = float(m.group(1)) * 10 ** int(m.group(2))
    elif m := re.fullmatch(r"(\d+)\^(\d+)", s):
        value = float(int(m.group(1)) ** int(m.group(2)))
    elif m := re.fullmatch(r"(\d+(?:\.\d+)?)e(\d+)", s):
        value = float(m.group(1)) * 10 ** int(m.group(2))
    else:
        value = float(s.replace(",", ""))
    return -int(value) if negative else int(value)


def _names(group: str) -> list[str]:
    names = []
    for raw in re.split(r"\s*,\s*", group.strip()):
        name = re.sub(r"\s+", "", raw)
        if name.lower().startswith("sum"):
            continue  # a \sum written as a chain is a sum bound, read by _SUM or not at all
        names.append(name)
    return names


def parse_bounds(text: str) -> Bounds:
    """Every bound `text` states. A name bounded twice keeps its largest upper bound (statements
    restate bounds for subtasks; the largest is what a solution must survive)."""
    plain = normalize(text)
    upper: dict[str, int] = {}
    lower: dict[str, int] = {}
    sums: dict[str, int] = {}

    def put(names: list[str], high: str, low: str | None, strict: bool) -> None:
        value = parse_number(high) - (1 if strict else 0)
        for name in names:
            upper[name] = max(upper.get(name, value), value)
            if low is not None:
                lower[name] = min(lower.get(name, parse_number(low)), parse_number(low))

    taken: list[tuple[int, int]] = []
    for m in _CHAIN.finditer(plain):
        put(_names(m.group("vars")), m.group("high"), m.group("low"), m.group("r2") == "<")
        taken.append(m.span())
    for m in _UPPER.finditer(plain):
        if any(a <= m.start() < b for a, b in taken):
            continue
        names = _names(m.group("vars"))
        if names and not any(n[0].isdigit() for n in names):
            put(names, m.group("high"), None, m.group("r2") == "<")
    for m in _SUM.finditer(plain):
        for name in re.split(r"\s+and\s+(?:the\s+)?sum\s+of\s+", m.group("vars"), flags=re.IGNORECASE):
            name = re.sub(r"\s+", "", name)
            sums[name] = max(sums.get(name, 0), parse_number(m.group("high")))
    for m in _RANGE.finditer(plain):
        put([m.group("what").lower()], m.group("high"), m.group("low"), False)
    for m in _CALLS.finditer(plain):
        put(["calls"], m.group("high"), None, False)
    for m in _ALIAS.finditer(plain):
        short, long = m.group("short"), re.sub(r"\s+", "", m.group("long"))
        if short not in upper and long in upper:
            upper[short] = upper[long]
    tests_var = None
    if _TESTS.search(plain):
        tests_var = next((v for v in ("t", "T") if v in upper), None)
    return Bounds(upper=upper, lower=lower, sums=sums, tests_var=tests_var)


def problem_bounds(problem: Problem) -> Bounds:
    """The bounds of a problem: its input section, statement and notes (LeetCode puts them in the statement)."""
    return parse_bounds("\n".join((problem.input_spec, problem.statement, problem.notes)))
