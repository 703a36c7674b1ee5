"""Flawed test-designer replies, built from a lab problem's own programs: the brute forces and generators a
fallible model writes, for the population model (`--designer`) and the lab's flaw mode (`cpbot lab --flaws`).

Each design is a brute force and a generator with the flaw it carries ("" for a right one). Built from any lab
problem with a brute force and a Python generator:
- `shared_defect`: one of the problem's wrong candidates as the brute force (it makes their mistake);
- `wrong_brute`: a brute force that knows the samples by heart and prints the first sample's answer elsewhere;
- `slow_brute`: one that knows the samples and never finishes on any other input (not even at N = 1);
- `bad_constraints`: the generator with the values after the first line negated (negatives where the
  statement says >= 1);
- `ignores_n`: the generator always run at N = 3, whatever N it is given.
Named in a problem's lab.json (`"flaws": {"few_decimals": {"brute": "brute_4dec.py"}}`), for what the lab's
problems cannot show: `few_decimals` (an answer printed with too few decimals), `no_checker` (a "print any"
problem answered by a brute force printing another valid answer, with no checker given).

Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Family = Literal["cpp", "python"]
DesignerMode = Literal["right", "flawed", "mixed"]
BUILT = ("shared_defect", "wrong_brute", "slow_brute", "bad_constraints", "ignores_n")
NAMED = ("few_decimals", "no_checker")
FLAWS = (*BUILT, *NAMED)
MIXED_FLAWED_SHARE = 0.5  # in `mixed` mode, the share of designer replies that carry a flaw


@dataclass(frozen=True)
class Code:
    """A program of a design: a name for the tables, its language family, its source."""

    name: str
    family: Family
    source: str


@dataclass(frozen=True)
class Design:
    """One test-designer reply: the brute force and generator it hands out, and its flaw ("" when right)."""

    flaw: str
    brute: Code | None
    generator: Code | None

    @property
    def label(self) -> str:
        return self.flaw or "right"


def _memorized(samples: Sequence[tuple[str, str]], otherwise: str) -> str:
    """A Python program printing each sample's answer for its input, and running `otherwise` for any other."""
    table = {" ".join(inp.split()): out for inp, out in samples}
    return (
        "import sys\n"
        f"ANSWERS = {table!r}\n"
        "text = ' '.join(sys.stdin.read().split())\n"
        "if text in ANSWERS:\n"
        "    sys.stdout.write(ANSWERS[text])\n"
        "else:\n" + "".join(f"    {line}\n" for line in otherwise.splitlines())
    )


_WRAPPED = """import contextlib, io, sys
SOURCE = {source!r}
def original(argv):
    sys.argv = argv
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(SOURCE, "gen.py", "exec"), {{"__name__": "__main__"}})
        except SystemExit:
            pass
    return out.getvalue()
"""

_NEGATED = """
lines = original(sys.argv).splitlines()
at = 1 if len(lines) > 1 else 0  # the values' line: the one after the sizes
def negated(line):
    return " ".join("-" + t if t.isdigit() and t != "0" else t for t in line.split())
print("\\n".join(lines[:at] + [negated(lines[at])] + lines[at + 1 :]) if lines else "")
"""

_FIXED_N = """
sys.stdout.write(original([sys.argv[0], "3", *sys.argv[2:]]))
"""


def built_designs(
    brute: Code | None, generator: Code | None, wrong: Sequence[Code], samples: Sequence[tuple[str, str]]
) -> dict[str, list[Design]]:
    """The flawed designs a problem's own programs allow (see the module's docstring), by flaw."""
    found: dict[str, list[Design]] = {}
    if brute is not None:
        found["shared_defect"] = [Design("shared_defect", w, generator) for w in wrong]
        first = samples[0][1] if samples else "0\n"
        constant = f"sys.stdout.write({first!r})"
        found["wrong_brute"] = [
            Design("wrong_brute", Code("wrong_brute.py", "python", _memorized(samples, constant)), generator)
        ]
        forever = "while True:\n    pass"
        found["slow_brute"] = [
            Design("slow_brute", Code("slow_brute.py", "python", _memorized(samples, forever)), generator)
        ]
    if generator is not None and generator.family == "python":
        wrapped = _WRAPPED.format(source=generator.source)
        found["bad_constraints"] = [
            Design("bad_constraints", brute, Code("gen_negative.py", "python", wrapped + _NEGATED))
        ]
        found["ignores_n"] = [Design("ignores_n", brute, Code("gen_fixed_n.py", "python", wrapped + _FIXED_N))]
    return {flaw: designs for flaw, designs in found.items() if designs}


def named_designs(
    brute: Code | None, generator: Code | None, named: Mapping[str, Mapping[str, Code]]
) -> dict[str, list[Design]]:
    """The flawed designs a problem's lab.json names (`flaws`: flaw -> {"brute": ..., "generator": ...})."""
    return {
        flaw: [Design(flaw, files.get("brute", brute), files.get("generator", generator))]
        for flaw, files in named.items()
        if flaw in FLAWS
    }


class DesignDraws:
    """Which design each test-designer request of a problem gets: the n-th request of a problem the n-th draw of
    a generator seeded by the seed and the problem, so the same requests get the same designs whatever else
    arrives between them. `right`: always the right design; `flawed`: always a flawed one; `mixed`: flawed with
    `MIXED_FLAWED_SHARE`. `flaws` limits the flaws drawn."""

    def __init__(self, mode: DesignerMode, seed: int, flaws: Sequence[str] = ()) -> None:
        self.mode, self.seed, self.flaws = mode, seed, tuple(flaws)
        self._rngs: dict[str, random.Random] = {}

    def draw(self, problem_id: str, right: Design, flawed: Mapping[str, list[Design]]) -> Design:
        rng = self._rngs.setdefault(problem_id, random.Random(f"{self.seed}:{problem_id}:designer"))
        usable = sorted(f for f in flawed if not self.flaws or f in self.flaws)
        wants_flaw = self.mode == "flawed" or (self.mode == "mixed" and rng.random() < MIXED_FLAWED_SHARE)
        flaw = rng.choice(usable) if usable else ""
        pick = rng.random()
        if not wants_flaw or not flaw:
            return right
        options = flawed[flaw]
        return options[int(pick * len(options))]
