"""Imports point down the layers and never go round in a circle (docs/design.md, "Layers").

Every `import` counts, those inside functions too (a lazy import is still a dependency); only imports
under `if TYPE_CHECKING:` do not, since they never run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

# folder -> import name (pyproject.toml's package-dir)
PACKAGES = {
    "cpbot": "cpbot",
    "bot": "cpbot.bot",
    "scrapers": "cpbot.scrapers",
    "agents": "cpbot.agents",
    "judge": "cpbot.judge",
    "templates": "cpbot.templates",
}
# Each layer may import the layers listed for it (and itself); cpbot.testing stands apart from them.
ALLOWED = {
    "cpbot.core": set(),
    "cpbot.judge": {"cpbot.core"},
    "cpbot.scrapers": {"cpbot.core", "cpbot.judge"},
    "cpbot.agents": {"cpbot.core", "cpbot.judge"},
    "cpbot.bot": {"cpbot.core", "cpbot.judge", "cpbot.scrapers", "cpbot.agents", "cpbot.testing"},
}
# Inside `bot/`, a package per job (docs/design.md, "Bot"); each may import the packages listed for it.
# `commands` (one lazy module per command) sits on top and may import them all.
BOT_ALLOWED = {
    "cpbot.bot.store": set(),
    "cpbot.bot.cli": set(),
    "cpbot.bot.submit": {"cpbot.bot.store"},
    "cpbot.bot.watch": {"cpbot.bot.store", "cpbot.bot.cli", "cpbot.bot.submit"},
    "cpbot.bot.bench": {"cpbot.bot.store", "cpbot.bot.cli"},
    "cpbot.bot.report": {"cpbot.bot.store", "cpbot.bot.submit", "cpbot.bot.watch", "cpbot.bot.bench"},
    "cpbot.bot.lab": {"cpbot.bot.store", "cpbot.bot.cli", "cpbot.bot.bench", "cpbot.bot.report"},
    "cpbot.bot.app": {"cpbot.bot.store", "cpbot.bot.cli", "cpbot.bot.submit", "cpbot.bot.watch", "cpbot.bot.report"},
    "cpbot.bot.verify": {"cpbot.bot.store", "cpbot.bot.cli", "cpbot.bot.report", "cpbot.bot.lab"},
}
BOT_TOP = "cpbot.bot.commands"


def module_files() -> dict[str, Path]:
    """Every module of the installed package, by its import name."""
    found = {}
    for folder, name in PACKAGES.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = path.relative_to(REPO / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((name, *parts))] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool, typing: bool = False) -> Iterator[str]:
    """The modules `module` imports (absolute names), skipping `if TYPE_CHECKING:` blocks unless `typing`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node) and not typing:
            yield from (name for child in node.orelse for name in _imports(child, module, is_package))
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                parent = parent[: len(parent) - node.level + (1 if is_package else 0)]
                base = ".".join([*parent, base] if base else parent)
            # `from package import module` needs the module; `from module import name`, the module
            yield from (f"{base}.{alias.name}" for alias in node.names)
            yield base
        yield from _imports(node, module, is_package, typing)


def import_graph(typing: bool = False) -> dict[str, set[str]]:
    """module -> the project's modules it imports (a package stands for its `__init__`); with `typing`, the
    imports made only for type checking count too."""
    files = module_files()
    graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = set(_imports(tree, module, path.name == "__init__.py", typing))
        graph[module] = {n for n in names if n in files and n != module and not _submodule_of(n, names, files)}
    return graph


def _submodule_of(package: str, names: set[str], files: dict[str, Path]) -> bool:
    """Whether `package` was named only as the parent of the submodules imported from it."""
    return files[package].name == "__init__.py" and any(n.startswith(package + ".") for n in names)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> str:
    """The layer a module belongs to (`cpbot.core`, `cpbot.bot`, ...)."""
    return ".".join(module.split(".")[:2])


def bot_package(module: str) -> str:
    """The package of `bot/` a module belongs to (`cpbot.bot.watch`, ...); `cpbot.bot` for bot/__init__."""
    return ".".join(module.split(".")[:3])


def test_no_module_imports_itself_through_others() -> None:
    assert circles(import_graph()) == []


def test_no_module_needs_itself_through_others_even_for_type_checking() -> None:
    # a circle hidden under TYPE_CHECKING still ties the modules' designs together
    assert circles(import_graph(typing=True)) == []


def test_every_import_points_down_the_layers() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if layer(module) in ALLOWED
        for target in sorted(targets)
        if layer(target) != layer(module) and layer(target) not in ALLOWED[layer(module)] | {"cpbot"}
    ]
    assert wrong == []


def test_bot_holds_only_its_job_packages() -> None:
    loose = sorted(p.name for p in (REPO / "bot").glob("*.py") if p.name != "__init__.py")
    packages = sorted(f"cpbot.bot.{p.name}" for p in (REPO / "bot").iterdir() if (p / "__init__.py").exists())
    assert loose == []
    assert packages == sorted([*BOT_ALLOWED, BOT_TOP])


def test_inside_bot_imports_point_down_the_job_packages() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if layer(module) == "cpbot.bot" and bot_package(module) != BOT_TOP
        for target in sorted(targets)
        if layer(target) == "cpbot.bot"
        and bot_package(target) != bot_package(module)
        and bot_package(target) not in BOT_ALLOWED.get(bot_package(module), set())
    ]
    assert wrong == []


def test_the_checks_see_a_circle_and_a_lazy_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    lazy = ast.parse("def f():\n    from cpbot.bot.report import render\n")
    assert "cpbot.bot.report.render" in set(_imports(lazy, "cpbot.bot.x", False))
    hidden = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import cpbot.bot.report.render\n")
    assert "cpbot.bot.report.render" not in set(_imports(hidden, "cpbot.bot.x", False))
