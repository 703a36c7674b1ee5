"""The Kattis problem package format (problemtools, BAPCtools), legacy and 2023-07: `problem.yaml`, `data/sample`
and `data/secret` (groups are folders), `submissions/<expected verdict>/`, `input_validators/`, and the custom
output validator (`output_validators/` legacy, `output_validator/` 2023-07). Facts from the format's
specification and problemtools' defaults: the time limit is the slowest accepted test times 5 (legacy) or 2.0
(2023-07), rounded up to whole seconds, and a TLE submission must still fail at that limit times 2 (legacy) or
1.5 (2023-07)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cpbot.core.errors import ConfigError
from cpbot.judge.packages.files import SOURCE_SUFFIXES, inside, package_submission, statement_text
from cpbot.judge.packages.model import Expected, PackageSubmission, PackageTest, ProblemPackage, TimeRules, Validator

MAX_YAML_BYTES = 1 << 20
# the statement, English first: 2023-07 keeps it in statement/, legacy (and BAPCtools) in problem_statement/
STATEMENTS = [
    f"{folder}/problem.{lang}{ext}"
    for folder in ("statement", "problem_statement")
    for lang in ("en.", "")
    for ext in ("md", "tex")
]


def is_kattis(root: Path) -> bool:
    return (root / "problem.yaml").is_file()


def read_kattis(root: Path) -> ProblemPackage:
    """The package in folder `root`; a `ConfigError` naming the file when it cannot be read."""
    root = root.resolve()
    meta = _yaml(root / "problem.yaml")
    version = str(meta.get("problem_format_version", "legacy"))
    modern = version.startswith("2023-07")
    notes: list[str] = []
    limits = meta.get("limits") or {}
    if not isinstance(limits, dict):
        raise ConfigError(f"{root / 'problem.yaml'}: limits is not a mapping")
    interactive, custom = _validation(meta, modern)
    checker, flag_notes = _default_checker(str(meta.get("validator_flags", "") or ""))
    notes += flag_notes
    output_dir = root / ("output_validator" if modern else "output_validators")
    output_validator = _one_validator(output_dir, notes) if custom or interactive else None
    if (custom or interactive) and output_validator is None:
        raise ConfigError(f"{root}: problem.yaml asks for a custom validator, but {output_dir.name}/ has none")
    return ProblemPackage(
        root=root,
        format="kattis-2023-07" if modern else "kattis-legacy",
        name=_name(meta.get("name"), root),
        statement=statement_text(root, STATEMENTS),
        interactive=interactive,
        memory_mb=int(limits.get("memory", 1024)),
        time=_time_rules(limits, modern),
        output_checker=checker,
        output_validator=output_validator,
        input_validators=_validators(root / "input_validators", notes),
        tests=_tests(root / "data", root),
        submissions=_submissions(root / "submissions", root, notes),
        notes=notes,
    )


def _yaml(path: Path) -> dict[str, Any]:
    if path.stat().st_size > MAX_YAML_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_YAML_BYTES} bytes", hint="a problem.yaml is a few lines")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not readable YAML ({e})".splitlines()[0]) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: not a mapping of keys to values")
    return data


def _name(value: object, root: Path) -> str:
    if isinstance(value, dict):  # 2023-07: one per language
        value = value.get("en") or next(iter(value.values()), None)
    return str(value) if value else root.name


def _validation(meta: dict[str, Any], modern: bool) -> tuple[bool, bool]:
    """(interactive, custom output validator)."""
    if modern:
        kinds = meta.get("type", "pass-fail")
        kinds = kinds.split() if isinstance(kinds, str) else [str(k) for k in kinds]
        return "interactive" in kinds, False  # 2023-07: a custom validator is there when its folder is
    words = str(meta.get("validation", "default")).split()
    return "interactive" in words, "custom" in words


def _default_checker(flags: str) -> tuple[str, list[str]]:
    """The cpbot checker for Kattis's default output validator with these flags."""
    words = flags.split()
    spec, notes = "tokens", []
    for i, word in enumerate(words):
        value = words[i + 1] if i + 1 < len(words) else ""
        if word == "float_tolerance":
            spec = f"float:{value}"
        elif word == "float_absolute_tolerance":
            spec = f"float-abs:{value}"
        elif word == "float_relative_tolerance":
            spec = f"float-rel:{value}"
        elif word in ("case_sensitive", "space_change_sensitive"):
            notes.append(
                f"validator flag {word}: cpbot compares tokens case- and space-insensitively as Kattis's default"
            )
    return spec, notes


def _time_rules(limits: dict[str, Any], modern: bool) -> TimeRules:
    if modern:
        multipliers = limits.get("time_multipliers") or {}
        fixed = limits.get("time_limit")
        return TimeRules(
            ac_to_time_limit=float(multipliers.get("ac_to_time_limit", 2.0)),
            time_limit_to_tle=float(multipliers.get("time_limit_to_tle", 1.5)),
            resolution_s=float(limits.get("time_resolution", 1.0)),
            fixed_s=float(fixed) if fixed is not None else None,
        )
    return TimeRules(
        ac_to_time_limit=float(limits.get("time_multiplier", 5.0)),
        time_limit_to_tle=float(limits.get("time_safety_margin", 2.0)),
    )


def _tests(data: Path, root: Path) -> list[PackageTest]:
    if not data.is_dir():
        raise ConfigError(f"{root}: no data/ folder with tests")
    found = []
    for group in ("sample", "secret"):
        folder = data / group
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.in")):
            if not path.is_file() or not inside(path, root):
                continue
            answer = path.with_suffix(".ans")
            found.append(
                PackageTest(
                    name=path.relative_to(data).with_suffix("").as_posix(),
                    input=path,
                    answer=answer if answer.is_file() and inside(answer, root) else None,
                    sample=group == "sample",
                )
            )
    if not found:
        raise ConfigError(f"{data}: no .in files under sample/ or secret/")
    return found


def _validator(path: Path, notes: list[str]) -> Validator:
    """One validator: a source, or a folder with one source (and its headers)."""
    if path.is_file():
        if path.suffix.lower() in SOURCE_SUFFIXES:
            return Validator(path=path, source=path)
        why = "a checktestdata script" if path.suffix == ".ctd" else f"a {path.suffix or 'file'} cpbot cannot run"
        return Validator(path=path, source=None, unsupported=why)
    sources = sorted(p for p in path.iterdir() if p.suffix.lower() in SOURCE_SUFFIXES)
    if len(sources) == 1:
        return Validator(path=path, source=sources[0])
    return Validator(path=path, source=None, unsupported=f"{len(sources)} sources in the folder (cpbot builds one)")


def _validators(folder: Path, notes: list[str]) -> list[Validator]:
    if not folder.is_dir():
        return []
    return [_validator(p, notes) for p in sorted(folder.iterdir()) if not p.name.startswith(".")]


def _one_validator(folder: Path, notes: list[str]) -> Validator | None:
    if not folder.is_dir():
        return None
    if any(p.suffix.lower() in SOURCE_SUFFIXES for p in folder.iterdir()):
        return _validator(folder, notes)  # 2023-07: the folder is the validator
    found = _validators(folder, notes)
    if len(found) > 1:
        notes.append(f"{folder.name}/ holds {len(found)} validators; the first, {found[0].path.name}, is used")
    return found[0] if found else None


def _submissions(folder: Path, root: Path, notes: list[str]) -> list[PackageSubmission]:
    found = []
    known = {e.value for e in Expected}
    if folder.is_dir():
        for other in sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in known):
            notes.append(f"submissions/{other.name}/: a folder cpbot verify does not know; its programs are not judged")
    for expected in Expected:
        group = folder / expected.value
        if not group.is_dir():
            continue
        for path in sorted(group.iterdir()):
            if not inside(path, root):
                notes.append(f"submission {path.relative_to(root)}: a link out of the package, not read")
                continue
            if path.is_dir():
                notes.append(f"submission {path.relative_to(root)}: a folder (several files) is not judged")
                continue
            found.append(package_submission(path, expected, str(path.relative_to(root)), notes))
    return found
