"""Write the lab's Library Checker problems into tests/fixtures/lab/ from a snapshot of
yosupo06/library-checker-problems (Apache-2.0).

    python scripts/lab/import_library_checker.py /path/to/library-checker-problems [--out tests/fixtures/lab]

Per problem: the English statement with its parameters filled in, the examples as samples (answers
from `sol/correct.cpp`), `correct.cpp` as the reference (and a right candidate), `naive.cpp` as the
brute force (or the lab's own brute force from `lc_generators.BRUTES`), the lab's generator, and the
solutions `info.toml` lists with an expected verdict as wrong candidates (other listed solutions as
right ones). A solution's `#include "X.h"` of Library Checker's `common/` is inlined. Needs g++.
Re-running rewrites the folders' Library Checker files but keeps mutants.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lc_generators import BRUTES, GENERATORS, HEAD

from cpbot.judge.packages.library_checker import task_statement

# problem folder in the snapshot -> the largest N its generator is run at for hidden tests
PROBLEMS = {
    "data_structure/static_range_sum": 500_000,
    "data_structure/point_add_range_sum": 500_000,
    "data_structure/range_affine_range_sum": 500_000,
    "data_structure/range_kth_smallest": 200_000,
    "data_structure/static_range_inversions_query": 100_000,
    "data_structure/rectangle_sum": 200_000,
    "data_structure/majority_voting": 500_000,
    "data_structure/segment_add_get_min": 200_000,
    "data_structure/line_add_get_min": 200_000,
    "tree/lca": 500_000,
    "data_structure/range_add_range_min": 500_000,
    "data_structure/queue_operate_all_composite": 500_000,
    "tree/vertex_add_subtree_sum": 500_000,
    "tree/vertex_add_path_sum": 500_000,
    "string/enumerate_palindromes": 500_000,
    "string/zalgorithm": 500_000,
    "enumerative_combinatorics/number_of_subsequences": 500_000,
    "data_structure/unionfind": 200_000,
    "graph/counting_c4": 300_000,
    "graph/k_shortest_walk": 300_000,
    "data_structure/range_affine_point_get": 500_000,
    "tree/jump_on_tree": 500_000,
    "tree/cartesian_tree": 1_000_000,
    "convolution/gcd_convolution": 1_000_000,
    "convolution/lcm_convolution": 1_000_000,
    "convolution/convolution_mod": 524_288,
    "convolution/convolution_mod_1000000007": 524_288,
    "data_structure/deque_operate_all_composite": 500_000,
    "convolution/bitwise_xor_convolution": 20,
    "convolution/bitwise_and_convolution": 20,
}
KIND = {"WA": "wa", "TLE": "tle", "RE": "re", "MLE": "re"}
HIDDEN_SIZES = (1, 2, 3, 5, 8, 10, 30, 100, 1000, 10_000)
HIDDEN_TOP = 200_000  # the largest hidden tests (Python generators are slow beyond)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def run_cpp(source: str, inputs: list[str], workdir: Path) -> list[str]:
    src, exe = workdir / "ref.cpp", workdir / "ref"
    src.write_text(source)
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(exe), str(src)], check=True)
    return [subprocess.run([str(exe)], input=i, capture_output=True, text=True, check=True).stdout for i in inputs]


def inline_common(source: str, show: Callable[[str], str], done: set[str] | None = None) -> str:
    """`source` with each `#include "X.h"` replaced by Library Checker's `common/X.h` (once each), so that
    a solution builds on its own."""
    done = set() if done is None else done

    def header(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in done:
            return ""
        done.add(name)
        text = show(f"common/{name}").replace("#pragma once\n", "")
        return f"// ---- common/{name} (Library Checker) ----\n{inline_common(text, show, done)}// ---- end ----\n"

    return re.sub(r'^#include "([\w./]+)"\n', header, source, flags=re.M)


def import_problem(repo: Path, commit: str, where: str, max_n: int, out: Path) -> None:
    name = where.rsplit("/", 1)[1]
    folder = out / name
    (folder / "candidates").mkdir(parents=True, exist_ok=True)
    info = tomllib.loads(git(repo, "show", f"{commit}:{where}/info.toml"))
    files = git(repo, "ls-tree", "--name-only", commit, f"{where}/sol/", f"{where}/gen/").split()
    raw = lambda path: git(repo, "show", f"{commit}:{path}")  # noqa: E731
    show = lambda path: inline_common(raw(path), raw)  # noqa: E731
    examples = sorted(f for f in files if re.search(r"/gen/example_\d+\.in$", f))
    reference = show(f"{where}/sol/correct.cpp")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = [show(f) for f in examples]
        outputs = run_cpp(reference, inputs, Path(tmp))
    problem = {
        "id": f"library-checker:{name}",
        "site": "local",
        "url": f"https://judge.yosupo.jp/problem/{name}",
        "title": info["title"],
        "statement": task_statement(show(f"{where}/task.md"), info.get("params", {})),
        "limits": {"time_ms": round(float(info["timelimit"]) * 1000), "memory_mb": 1024},
        "samples": [
            {"input": i, "output": o, "origin": "sample", "name": f"example {k + 1}"}
            for k, (i, o) in enumerate(zip(inputs, outputs, strict=True))
        ],
        "checker": "tokens",
    }
    (folder / "problem.json").write_text(json.dumps(problem, indent=2) + "\n")
    (folder / "reference.cpp").write_text(reference)
    (folder / "gen.py").write_text(HEAD + GENERATORS[name])
    brute = "brute.py" if name in BRUTES else "brute.cpp"
    if name in BRUTES:
        (folder / brute).write_text(BRUTES[name])
    else:  # Library Checker's naive solution (for lca, its too-slow one)
        naive = "tle.cpp" if f"{where}/sol/naive.cpp" not in files else "naive.cpp"
        (folder / brute).write_text(show(f"{where}/sol/{naive}"))
    candidates = [{"file": "candidates/correct.cpp", "label": "right", "kind": "right", "origin": "library-checker"}]
    (folder / "candidates/correct.cpp").write_text(reference)
    for sol in info.get("solutions", []):
        file = sol["name"]
        if f"{where}/sol/{file}" not in files or file == "correct.cpp":
            continue
        expect = sol.get("expect")
        if (expect is None and sol.get("allow_tle")) or sol.get("function"):
            continue  # may or may not be fast enough: no label; or a function without main
        (folder / "candidates" / file).write_text(show(f"{where}/sol/{file}"))
        label = "wrong" if expect in KIND else "right"
        entry = {
            "file": f"candidates/{file}",
            "label": label,
            "kind": KIND.get(expect, "right"),
            "origin": "library-checker",
        }
        entry["note"] = f"info.toml expects {expect or 'AC'}"
        candidates.append(entry)
    lab_path = folder / "lab.json"
    kept = (
        [c for c in json.loads(lab_path.read_text())["candidates"] if c["origin"] != "library-checker"]
        if lab_path.exists()
        else []
    )
    top = min(max_n, HIDDEN_TOP)
    sizes = [*sorted({n for n in HIDDEN_SIZES if n < top} | {top // 10}), top, top]
    lab = {
        "schema_version": 1,
        "origin": "library-checker",
        "source": f"yosupo06/library-checker-problems:{where}@{commit}",
        "licence": "Apache-2.0",
        "reference": "reference.cpp",
        "brute": brute,
        "generator": "gen.py",
        "hidden": {"generated": [{"n": n, "seed": 1000 + i} for i, n in enumerate(sizes)], "files": []},
        "candidates": candidates + kept,
    }
    lab_path.write_text(json.dumps(lab, indent=2) + "\n")
    print(f"{name}: {len(problem['samples'])} samples, {len(candidates)} candidates")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path, help="a git clone or mirror of library-checker-problems")
    parser.add_argument("--out", type=Path, default=Path("tests/fixtures/lab"))
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--problem", action="append", help="only this problem (its folder name; repeatable)")
    args = parser.parse_args()
    commit = git(args.repo, "rev-parse", args.commit).strip()
    for where, max_n in PROBLEMS.items():
        if not args.problem or where.rsplit("/", 1)[1] in args.problem:
            import_problem(args.repo, commit, where, max_n, args.out)


if __name__ == "__main__":
    main()
