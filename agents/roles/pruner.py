"""The static pruner: rejects a plan whose claimed complexity cannot fit the limits, before any code.

No model is asked. The claimed complexity (`O(n log n)`, `O((n + q) log n)`, `O(n \\sqrt n)`,
`O(2^(n/2))`, ...) is parsed into an expression and evaluated at the largest sizes the statement allows
(`constraints.parse_bounds`); in a multi-test problem the cost of one test is multiplied by the number
of tests at that size the statement permits (all `t` of them, or as many as the sum bound allows). The
estimate is compared with what the language does in the time limit. Only clear misses are rejected
(more than `SLACK` times the budget): constants are unknown, so a borderline plan deserves its chance.
A plan that claims no complexity, or names a quantity the statement does not bound, is accepted with
the reason saying why nothing could be checked.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from cpbot.agents.envelopes import Plan, PruneDecision
from cpbot.agents.roles.constraints import Bounds, problem_bounds
from cpbot.core.registry import Family, language_spec
from cpbot.judge.model import Language, Problem

ROLE = "pruner"

SLACK = 2.0  # reject only beyond this many times the budget
TIGHT = 0.5  # from this share of the budget on, the reason warns that it is tight
BYTES_PER_CELL = 4
UNKNOWN_LOG_ARGUMENT = 1e9  # log of a value the statement does not bound (log A, log C): about 30
DEEP_RECURSION = 10**4  # Python recursion this deep needs sys.setrecursionlimit (and care)

_FUNCTIONS = {"log", "sqrt", "max", "min", "alpha", "loglog"}
# Names plans use for quantities statements call otherwise.
_ALIASES: dict[str, tuple[str, ...]] = {
    "V": ("n", "N"),
    "E": ("m", "M"),
    "N": ("n",),
    "M": ("m",),
    "Q": ("q",),
    "L": ("n", "|s|", "s"),
    "q": ("calls", "Q"),
}


class ComplexityParseError(ValueError):
    """A complexity the pruner cannot read; `unknown` names a quantity it could not bound."""

    def __init__(self, message: str, unknown: str | None = None) -> None:
        super().__init__(message)
        self.unknown = unknown


@dataclass(frozen=True)
class Estimate:
    """The cost of a plan at the statement's maxima."""

    expression: str  # the O(...) that was read
    operations: float
    per_test: float
    tests: float  # how many tests of that size one input may hold
    values: dict[str, float]  # the sizes used


# ---- the complexity expression ------------------------------------------------------------------


def find_big_o(text: str) -> list[str]:
    """Every `O(...)` in `text`, inner text only, in order (parentheses balanced)."""
    found = []
    for m in re.finditer(r"(?<![A-Za-z])[OΘθ]\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        if depth == 0:
            found.append(text[m.end() : i - 1])
    return found


def _normalize(expr: str) -> str:
    s = expr
    s = s.replace("\\left", "").replace("\\right", "").replace("$", "")
    s = re.sub(r"\\(?:log|lg|ln)\b|\blg\b|\bln\b|\blog_?\{?2\}?", " log ", s)
    s = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r" sqrt(\1)", s)
    s = re.sub(r"\\sqrt\b|√", "sqrt ", s)
    s = re.sub(r"\\(?:cdot|times)|[·⋅×∙]", "*", s)
    s = re.sub(r"\\alpha|α|\binverse[ -]ackermann\b", "alpha", s)
    s = s.replace("²", "^2").replace("³", "^3").replace("{", "(").replace("}", ")").replace("\\", "")
    s = re.sub(r"\blog\s*log\b", "loglog", s)
    return s


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?(?:e\d+)?)|(\|[A-Za-z]\w*\|)|([A-Za-z][A-Za-z0-9_]*(?:\.length)?)|(\S))")


def _tokens(expr: str) -> list[str]:
    out = []
    for m in _TOKEN.finditer(expr):
        token = next(g for g in m.groups() if g is not None)
        out.append(token)
    return out


class _Parser:
    """Recursive descent over + - * / ^ ! with implicit multiplication and log/sqrt/max/min."""

    def __init__(self, tokens: list[str], value_of: Callable[[str, bool], float]) -> None:
        self.tokens = tokens
        self.i = 0
        self.value_of = value_of
        self.in_log = 0
        self.names: set[str] = set()

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ComplexityParseError(f"expected {expected or 'more'} at the end of the complexity")
        self.i += 1
        return token

    def parse(self) -> float:
        value = self.expr()
        if self.peek() is not None:
            raise ComplexityParseError(f"cannot read {' '.join(self.tokens[self.i :])!r} in the complexity")
        return value

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            right = self.term()
            value = value + right if op == "+" else max(value - right, 1.0)
        return value

    def starts_atom(self, token: str | None) -> bool:
        return token is not None and (token == "(" or token[0].isalnum() or token[0] == "|")

    def term(self) -> float:
        value = self.power()
        while True:
            token = self.peek()
            if token in ("*", "/"):
                self.take()
                right = self.power()
                value = value * right if token == "*" else value / max(right, 1e-9)
            elif self.starts_atom(token):
                value *= self.power()
            else:
                return value

    def power(self) -> float:
        base = self.atom()
        while self.peek() == "!":
            self.take()
            base = math.gamma(min(base, 170.0) + 1)
        if self.peek() == "^":
            self.take()
            exponent = self.power()
            return math.pow(base, min(exponent, 1000.0)) if base > 1 else base
        return base

    def atom(self) -> float:
        token = self.take()
        if token == "(":
            value = self.expr()
            self.take(")")
            return value
        if token[0].isdigit():
            return float(token)
        if token in _FUNCTIONS:
            return self.function(token)
        if token[0].isalpha() or token[0] == "|":
            self.names.add(token)
            return self.value_of(token, self.in_log > 0)
        raise ComplexityParseError(f"cannot read {token!r} in the complexity")

    def function(self, name: str) -> float:
        exponent = 1.0
        if self.peek() == "^":  # log^2 n
            self.take()
            exponent = float(self.take())
        if name in ("max", "min"):
            self.take("(")
            args = [self.expr()]
            while self.peek() == ",":
                self.take()
                args.append(self.expr())
            self.take(")")
            return (max(args) if name == "max" else min(args)) ** exponent
        self.in_log += name in ("log", "loglog")
        try:
            argument = self.power() if self.peek() != "(" else self.atom()
        finally:
            self.in_log -= name in ("log", "loglog")
        if name == "alpha":
            return 1.0
        if name == "sqrt":
            return math.sqrt(max(argument, 0.0)) ** exponent
        logged = max(math.log2(max(argument, 2.0)), 1.0)
        if name == "loglog":
            logged = max(math.log2(logged), 1.0)
        return logged**exponent


def evaluate(expression: str, value_of: Callable[[str], float | None]) -> tuple[float, set[str]]:
    """The value of a complexity's inner text with `value_of(name)` for each quantity, and the names used.
    Raises `ComplexityParseError` for text it cannot read or a quantity without a value (except inside
    a logarithm, where an unbounded value counts as `UNKNOWN_LOG_ARGUMENT`)."""

    def lookup(name: str, in_log: bool) -> float:
        value = value_of(name)
        if value is not None:
            return float(value)
        if 1 < len(name) <= 3 and name.isalpha():  # "nm" is n * m when both are bounded
            letters = [value_of(c) for c in name]
            if all(v is not None for v in letters):
                return math.prod(float(v) for v in letters)  # type: ignore[arg-type]
        if in_log:
            return UNKNOWN_LOG_ARGUMENT
        raise ComplexityParseError(f"the statement gives no bound for {name!r}", unknown=name)

    tokens = _tokens(_normalize(expression))
    if not tokens:
        raise ComplexityParseError("the complexity is empty")
    parser = _Parser(tokens, lookup)
    return parser.parse(), parser.names


# ---- the estimate --------------------------------------------------------------------------------


def _resolver(bounds: Bounds) -> Callable[[str], tuple[str, int] | None]:
    """Finds the bound a plan's name refers to: itself, an alias, or for n a length or node count."""

    def find(name: str) -> tuple[str, int] | None:
        for candidate in (name, *_ALIASES.get(name, ())):
            value = bounds.get(candidate)
            if value is not None:
                return candidate, value
        if name in ("n", "N", "V", "L"):
            for fallback in ("nodes", "calls"):
                if fallback in bounds.upper:
                    return fallback, bounds.upper[fallback]
            lengths = {k: v for k, v in bounds.upper.items() if k.endswith(".length") and "[" not in k}
            if lengths:
                key = max(lengths, key=lambda k: lengths[k])
                return key, lengths[key]
        return None

    return find


def estimate(complexity: str, bounds: Bounds) -> Estimate:
    """The operations `complexity` (its first `O(...)`, or the bare expression) costs at the bounds.

    In a multi-test input the worst case is either as many tests of the largest size as the sum bounds
    allow, or all `t` tests with the sum spread evenly (which is worse for O(1) or O(log n) per test)."""
    found = find_big_o(complexity)
    inner = found[0] if found else complexity
    find = _resolver(bounds)

    largest: dict[str, float] = {}
    sums: dict[str, float] = {}

    def at_max(name: str) -> float | None:
        hit = find(name)
        if hit is None:
            return None
        key, value = hit
        total = bounds.sums.get(key, bounds.sums.get(name))
        largest[name] = float(min(value, total)) if total is not None else float(value)
        if total is not None:
            sums[name] = float(total)
        return largest[name]

    per_test, names = evaluate(inner, at_max)
    if bounds.tests_var is None or bounds.tests_var in names:
        return Estimate(f"O({inner.strip()})", per_test, per_test, 1.0, dict(largest))
    t_max = float(bounds.upper.get(bounds.tests_var, 1))
    if not sums:
        return Estimate(f"O({inner.strip()})", per_test * t_max, per_test, t_max, dict(largest))
    full = min([t_max, *(sums[v] / max(largest[v], 1.0) for v in sums)])
    spread = {v: max(1.0, min(largest[v], sums[v] / t_max)) for v in sums}

    per_spread, _ = evaluate(inner, lambda name: spread.get(name, largest.get(name)))
    if per_spread * t_max > per_test * full:
        return Estimate(f"O({inner.strip()})", per_spread * t_max, per_spread, t_max, {**largest, **spread})
    return Estimate(f"O({inner.strip()})", per_test * full, per_test, full, dict(largest))


def _fmt(x: float) -> str:
    return f"{x:.1e}" if x >= 1e4 else f"{x:g}"


def _space_claim(text: str) -> str | None:
    """The O(...) a plan gives for memory, if it says which one that is."""
    m = re.search(r"(?:space|memory)[^O]{0,20}O\s*\(|O\s*\([^)]*\)\s*(?:extra\s+)?(?:space|memory)", text, re.I)
    if not m:
        return None
    found = find_big_o(text[m.start() :])
    return found[0] if found else None


def prune(plan: Plan, problem: Problem, *, language: Language = "cpp17", bounds: Bounds | None = None) -> PruneDecision:
    """Accept or reject `plan` for `problem` in `language`, by its claimed complexity against the limits."""
    bounds = bounds or problem_bounds(problem)
    if plan.input_bounds:
        merged = {**plan.input_bounds, **bounds.upper}  # the statement wins over the model's reading of it
        bounds = bounds.model_copy(update={"upper": merged})
    claim = plan.complexity or next(iter(find_big_o(f"{plan.algorithm}\n{plan.rationale}")), "")
    if not claim.strip():
        return PruneDecision(accepted=True, reason="the plan claims no complexity: nothing to check")
    seconds = problem.limits.time_ms / 1000
    budget = language_spec(language).ops_per_second * seconds
    try:
        est = estimate(claim, bounds)
    except ComplexityParseError as e:
        return PruneDecision(accepted=True, reason=f"cannot estimate {claim.strip()!r}: {e}; accepted unchecked")
    sizes = ", ".join(f"{k} = {_fmt(v)}" for k, v in est.values.items()) or "no sizes"
    tests = f" x {_fmt(est.tests)} tests" if est.tests > 1 else ""
    cost = f"{est.expression} at {sizes}{tests} is about {_fmt(est.operations)} operations"
    room = f"{language} does about {_fmt(budget)} in {seconds:g} s"
    if est.operations > SLACK * budget:
        return PruneDecision(accepted=False, reason=f"too slow: {cost}; {room}")
    notes = [f"fits: {cost}; {room}"]
    if est.operations > TIGHT * budget:
        notes[0] = f"tight: {cost}; {room}"
    space = _space_claim(plan.complexity)
    if space is not None:
        find = _resolver(bounds)
        try:
            cells, _ = evaluate(space, lambda name: hit[1] if (hit := find(name)) else None)
        except ComplexityParseError:
            cells = 0.0  # an unreadable memory claim is not checked, like an unreadable time claim
        memory = cells * BYTES_PER_CELL / 2**20
        if memory > SLACK * problem.limits.memory_mb:
            return PruneDecision(
                accepted=False,
                reason=f"too much memory: O({space}) cells is about {_fmt(memory)} MB; "
                f"the limit is {problem.limits.memory_mb} MB",
            )
    if language_spec(language).family is Family.PYTHON:
        text = " ".join([plan.algorithm, *plan.steps]).lower()
        if re.search(r"recurs|\bdfs\b|depth[- ]first", text) and (bounds.max_size() or 0) >= DEEP_RECURSION:
            notes.append("recursion may go deep in Python: use an explicit stack or raise the recursion limit")
    return PruneDecision(accepted=True, reason="; ".join(notes))
