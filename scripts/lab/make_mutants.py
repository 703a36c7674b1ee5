"""Mutants of the lab problems' C++ references that pass the samples and fail a hidden test.

    python scripts/lab/make_mutants.py tests/fixtures/lab [--problem NAME] [--tries 16] [--keep 8]

Every mutation site of the reference is listed per kind (a changed comparison, an off-by-one, a 64-bit
type narrowed to 32 bits, an edge-case guard dropped), the sites are shuffled with the problem's name as
seed and taken round-robin over the kinds; each mutant is judged on the samples (it must pass) and on
the hidden tests (it must fail one). Kept mutants are written to `candidates/m<NN>_<kind>.cpp` and
listed in lab.json with origin `mutant` and a note saying what changed. Deterministic: the same
reference gives the same mutants (earlier mutants of the problem are replaced, or kept with `--add`, which
adds new ones numbered after them). Operators: a changed comparison, an off-by-one, a 64-bit type
narrowed or a widening dropped (`1LL *`, a cast, a `% MOD`), an edge-case guard dropped or an infinity
made too small, a loop made quadratic or stopped one short, the other of the two usual moduli. `--kind`
takes only the named operators (say, the ones added since a problem's earlier mutants were made).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from itertools import zip_longest
from pathlib import Path

from cpbot.bot.lab.dataset import hidden_tests, load_dataset
from cpbot.bot.lab.measure import _starved
from cpbot.judge.model import Solution, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import default_sandbox

_BRACED_LOOP = (
    r"for\s*\(\s*(?:int|long long|ll|size_t)\s+(\w+)\s*=\s*0\s*;\s*\1\s*<\s*\w+\s*;\s*(?:\+\+\1|\1\+\+)\s*\)\s*\{"
)
_TYPES = "int|long|ll|char|bool|double|pair|vector|string|unsigned|size_t|u?int\\d+_t|mint|modint|array|tuple|std|T|S|F"

# kind -> (pattern, replacement) applied to one match at a time
OPERATORS: dict[str, list[tuple[str, str]]] = {
    "comparison": [
        (r"(?<![<>])<=(?!=)", "<"),
        (r"(?<![<>])>=(?!=)", ">"),
        (rf"(?<=[\w)\]])\s*<(?![<=])(?!\s*(?:{_TYPES})\b)(?=\s*[\w(])", " <="),
        (r"(?<=[\w)\]])\s*>(?![>=])(?=\s*[\w(])", " >="),
    ],
    "off_by_one": [
        (r"\s*\+\s*1\b(?!\d)", ""),
        (r"\s*-\s*1\b(?!\d)", ""),
        (r"(?<=\w)\+\+(?=\w)", ""),
        (r"(?<=[^<]<)(\s*)(\w+)(?=\s*;\s*(?:\+\+|\w+\s*(?:\+\+|\+=)))", r"\1\2 - 1"),  # a loop stops one short
    ],
    "overflow": [
        (r"\bunsigned long long\b", "unsigned int"),
        (r"\blong long\b", "int"),
        (r"\bu?int64_t\b", "int"),
        (r"\b1LL\s*\*\s*", ""),  # the widening of a product dropped
        (r"\((?:long long|ll|i64|u64|uint64_t|int64_t|ull|uint_fast64_t)\)\s*(?=\w)", ""),  # a cast to 64 bits dropped
        (r"\b(?:ll|ull|i64|u64)\((?=\w)", "("),  # a functional cast to 64 bits dropped
        (r"\s*%\s*(?:MOD|mod|MD|md)\b", ""),  # a reduction modulo the modulus forgotten
    ],
    "edge": [
        (r"\bif\s*\((.*)\)(?=\s*(?:return|continue|break)\b)", "if (false)"),
        # an infinity too small for the sums it bounds
        (r"\b1LL\s*<<\s*[56]\d\b", "1LL << 30"),
        (r"\bTEN\(18\)", "TEN(9)"),
        (r"\b(?:1e18|LLONG_MAX)\b", "INT_MAX"),
    ],
    # a loop over 0..n gets a hidden inner loop over 0..i: right answers, quadratic time
    "tle": [
        (
            _BRACED_LOOP,
            r"\g<0> for (volatile int q_ = 0; q_ < \1; q_ = q_ + 1) {}",
        ),
        # any other counting loop (braced or not): the inner loop rides in its increment
        (
            rf"(?!{_BRACED_LOOP})"
            r"(?P<head>for\s*\(\s*(?:int|long long|ll|size_t|unsigned)\s+(?P<i>\w+)\s*=[^;]*;[^;]*;\s*)"
            r"(?P<step>\+\+(?P=i)|(?P=i)\+\+)(?P<close>\s*\))",
            r"\g<head>\g<step>, [&] { for (volatile long long q_ = 0; q_ < \g<i>; q_ = q_ + 1) {} }()\g<close>",
        ),
    ],
    # the modulus a programmer mistypes or mixes up: right on small answers, wrong once they wrap
    "modulus": [(r"\b998244353\b", "1000000007"), (r"\b1000000007\b", "998244353")],
}


def sites(source: str) -> dict[str, list[tuple[int, int, int, str, str]]]:
    """Per kind: (line, start, end, replacement, what) for every place an operator applies."""
    found: dict[str, list[tuple[int, int, int, str, str]]] = {k: [] for k in OPERATORS}
    for number, line in enumerate(source.splitlines()):
        code = line.split("//", 1)[0]
        if code.lstrip().startswith("#") or "template" in code or "cout <<" in code or "printf" in code:
            continue
        for kind, rules in OPERATORS.items():
            for pattern, replacement in rules:
                if replacement == " >=" and re.search(rf"<\s*(?:{_TYPES})\b", code):
                    continue  # a template's closing bracket, not a comparison
                for m in re.finditer(pattern, code):
                    replaced = m.expand(replacement)
                    what = f"line {number + 1}: {m.group(0).strip()!r} -> {replaced.strip()!r}"
                    found[kind].append((number, m.start(), m.end(), replaced, what))
    return found


def mutate(source: str, site: tuple[int, int, int, str, str]) -> str:
    number, start, end, replacement, _ = site
    lines = source.splitlines(keepends=True)
    lines[number] = lines[number][:start] + replacement + lines[number][end:]
    return "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--problem", action="append")
    parser.add_argument("--tries", type=int, default=16, help="mutants judged per problem")
    parser.add_argument("--keep", type=int, default=8, help="mutants kept per problem")
    parser.add_argument("--kind", action="append", choices=sorted(OPERATORS), help="only these operators")
    parser.add_argument("--add", action="store_true", help="keep the problem's mutants and add new ones after them")
    args = parser.parse_args()
    sandbox = default_sandbox()
    for lab in load_dataset(args.root, set(args.problem) if args.problem else None):
        if lab.spec.reference is None or not lab.spec.reference.endswith(".cpp"):
            continue
        reference = lab.program(lab.spec.reference).source
        per_kind = {k: v for k, v in sites(reference).items() if not args.kind or k in args.kind}
        for kind, listed in per_kind.items():
            random.Random(f"{lab.name}:{kind}").shuffle(listed)
        order = [
            (k, s) for round_ in zip_longest(*per_kind.values()) for k, s in zip(per_kind, round_, strict=True) if s
        ]
        hidden = hidden_tests(lab, sandbox)
        earlier = [c for c in lab.spec.candidates if c.origin == "mutant"] if args.add else []
        kept, seen = [], {(lab.folder / c.file).read_text() for c in earlier}
        for kind, site in order[: args.tries]:
            source = mutate(reference, site)
            if source in seen:
                continue
            seen.add(source)
            solution = Solution(language="cpp17", source=source)
            if judge_problem(solution, lab.problem, sandbox=sandbox).verdict != Verdict.AC:
                continue
            report = judge_problem(solution, lab.problem, hidden, sandbox=sandbox, stop_on_failure=True)
            if report.verdict == Verdict.AC or _starved(report, lab.problem.limits.time_ms):
                continue  # right, or too slow only because the machine was busy: not a labelled near miss
            kept.append(
                (
                    kind,
                    site[4],
                    source,
                    f"{report.verdict} on {report.first_failure.name if report.first_failure else '?'}",
                )
            )
            if len(kept) >= args.keep:
                break
        folder = lab.folder / "candidates"
        for old in folder.glob("m[0-9][0-9]_*.cpp") if not args.add else ():
            old.unlink()
        candidates = [
            c.model_dump(exclude_defaults=True) for c in lab.spec.candidates if c.origin != "mutant" or args.add
        ]
        first = 1 + max((int(Path(c.file).name[1:3]) for c in earlier), default=0)
        for i, (kind, what, source, failure) in enumerate(kept, start=first):
            name = f"candidates/m{i:02d}_{kind}.cpp"
            (lab.folder / name).write_text(source)
            candidates.append(
                {"file": name, "label": "wrong", "kind": kind, "origin": "mutant", "note": f"{what}; {failure}"}
            )
        spec = json.loads((lab.folder / "lab.json").read_text())
        spec["candidates"] = candidates
        (lab.folder / "lab.json").write_text(json.dumps(spec, indent=2) + "\n")
        print(f"{lab.name}: {len(kept)} mutants kept of {min(len(order), args.tries)} tried", file=sys.stderr)


if __name__ == "__main__":
    main()
