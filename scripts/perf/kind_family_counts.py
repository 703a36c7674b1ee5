"""Where problem kinds and language families are decided outside their homes (issue 24, step 17).

Usage: python scripts/perf/kind_family_counts.py [ROOT]
Reads the source tree at ROOT (default: this checkout; give another worktree, e.g. one at the commit
before the change, for the "before" figure) and prints, with each place found:
- kind branches: comparisons of a problem's kind (`problem.kind`, `shape.kind`, a bare `kind`) with
  "stdio", "function" or "interactive", outside judge/kinds/ (a Signature's own kind is not one);
- kind-built values: `kind="interactive" if ... else "stdio"` (a scraper naming what it parsed);
- language prefix tests: `x.startswith("cpp")`-style tests of a language name.
Counts AST nodes, so the figure does not depend on formatting. Takes about a second.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

KINDS = {"stdio", "function", "interactive"}
SPELLINGS = {"cpp17", "cpp20", "python3", "pypy3", "cpp", "c++", "python", "py", "pypy"}
FOLDERS = ("cpbot", "bot", "scrapers", "agents", "judge")


def _is_problem_kind(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "kind"
    return isinstance(node, ast.Attribute) and node.attr == "kind" and "signature" not in ast.unparse(node.value)


def scan(path: Path, root: Path) -> tuple[list[str], list[str], list[str]]:
    branches, built, prefixes = [], [], []
    where = path.relative_to(root)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Constant) and s.value in KINDS for s in sides) and any(
                _is_problem_kind(s) for s in sides
            ):
                branches.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.keyword) and node.arg == "kind" and isinstance(node.value, ast.IfExp):
            values = (node.value.body, node.value.orelse)
            if all(isinstance(v, ast.Constant) and v.value in KINDS for v in values):
                built.append(f"{where}:{node.value.lineno}: kind={ast.unparse(node.value)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith":
            arg = node.args[0] if node.args else None
            literals = arg.elts if isinstance(arg, ast.Tuple) else [arg]
            words = [c.value.lower() for c in literals if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if any(w and any(s.startswith(w) for s in SPELLINGS) for w in words):
                prefixes.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return branches, built, prefixes


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]).resolve()
    kinds_home = root / "judge" / "kinds"
    branches, built, prefixes = [], [], []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            b, v, p = scan(path, root)
            branches += [] if kinds_home in path.parents else b
            built += v
            prefixes += p
    for title, found in (
        ("kind branches", branches),
        ("kind-built values", built),
        ("language prefix tests", prefixes),
    ):
        files = len({f.split(":")[0] for f in found})
        print(f"{title}: {len(found)} in {files} files")
        for line in found:
            print(f"  {line}")


if __name__ == "__main__":
    main()
