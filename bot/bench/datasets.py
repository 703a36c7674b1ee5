"""Benchmark datasets: where problems come from, and the split between what agents see and what judges them.

Four layouts are read (and ALE-Bench's problem folders among cpbot's own, `ale_bench.py`):

- `dir`: cpbot's own layout, as `cpbot fetch -o DIR` writes it: `problem.json` (statement, limits,
  samples) and `tests/NAME.in|.out`. The samples are `tests/sample-*`; every other test is hidden.
  A dataset is either one such directory or a directory of them.
- `kickstart`: the Kick Start subset (`<year>_<round>_<slug>/problem.json`, `statement.md`,
  `hidden/<k>.in|.out`); each hidden file is one whole test set of `Case #i:` answers.
- `leetcode`: LeetCodeDataset (`*.jsonl.gz`) through the LeetCode harness. The examples written in the
  description are the samples; the recorded `input_output` cases that are not examples are hidden.
- `livecodebench`: LiveCodeBench's code-generation release files (`test*.jsonl`, see `livecodebench`):
  the public tests are the samples; public and private tests are judged, as LiveCodeBench grades.

Each problem becomes a `BenchProblem`: the `Problem` the agents get (statement and samples only) and the
hidden tests, kept apart and judged only after the strategy returns. A `Dataset` is a small value (kind +
path) so a Ray task can rebuild any problem from its key instead of receiving it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from cpbot.bot.bench import livecodebench
from cpbot.bot.bench.ale_bench import ale_problem, is_ale_problem
from cpbot.bot.bench.standings import RecordedStandings, read_standings
from cpbot.core import bounds
from cpbot.core.bounds import TEST_FILE
from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.safe_paths import inside, read_file
from cpbot.judge.harness.dataset import DATASET_FILE, DatasetCase, dataset_row, item_from_row, iter_rows
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Limits, Problem, TestCase
from cpbot.judge.testdir import load_tests_dir, read_text_exact
from cpbot.judge.tool_paths import tools_in

Kind = Literal["dir", "kickstart", "leetcodedataset", "livecodebench"]
HIDDEN_SEEDS_FROM = 1_000_000  # a score-based problem's hidden seeds start here, far from the agents' own
CASE_MARK = re.compile(rb"Case\s*#(\d+):")
_EXAMPLE = re.compile(r"Input:?\s*(?P<input>.+?)\s*\n\s*Output:?\s*(?P<output>.+?)\s*(?:\n|$)", re.IGNORECASE)


class BenchProblem(BaseModel):
    """One benchmark problem: what the agents see, and the hidden tests that judge their answer."""

    model_config = ConfigDict(extra="forbid")

    key: str  # the problem's name inside its dataset (a folder name, a task slug)
    problem: Problem  # statement, limits and samples only
    hidden: list[TestCase]
    # score-based problems: the seeds the returned program is scored on, none of which the agents scored on
    hidden_seeds: list[int] = []
    # cases in each hidden test: 1, or the number of `Case #i:` answers of a multi-case file
    case_counts: list[int]
    case_format: Literal["whole", "case_lines"] = "whole"
    # score-based problems: the contest's final standings, when recorded (`standings.py`)
    standings: RecordedStandings | None = None

    @property
    def total_cases(self) -> int:
        """All hidden cases of the problem."""
        return sum(self.case_counts)


class Dataset(BaseModel):
    """A dataset on disk: its layout and path. Cheap to pass around (to threads, processes, Ray tasks)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Kind
    path: Path
    # livecodebench only: the CPU limit per test (LiveCodeBench records none; its grader waits 6 s)
    time_limit_ms: int | None = None

    @property
    def name(self) -> str:
        """A short name for reports."""
        return f"{self.kind}:{self.path.name}"

    def problem_keys(self, selection: livecodebench.Selection | None = None) -> list[str]:
        """The problems' keys, in the dataset's order; `selection` (release window, platform,
        difficulty) applies to LiveCodeBench files only."""
        if self.kind == "livecodebench":
            return livecodebench.select(self.path, selection)
        if selection is not None and not selection.empty:
            raise ConfigError(
                f"{self.name}: --since, --until, --platform and --difficulty select LiveCodeBench problems",
                hint="use them with a LiveCodeBench release file",
            )
        if self.kind == "leetcodedataset":
            return [row["task_id"] for row in iter_rows(self.path)]
        if (self.path / "problem.json").is_file() or is_ale_problem(self.path):
            return ["."]
        return sorted(d.name for d in self.path.iterdir() if (d / "problem.json").is_file() or is_ale_problem(d))

    def load(self, key: str) -> BenchProblem:
        """The problem `key` (see `problem_keys`)."""
        if self.kind == "livecodebench":
            return lcb_problem(self.path, key, self.time_limit_ms or livecodebench.DEFAULT_TIME_LIMIT_MS)
        if self.kind == "leetcodedataset":
            for row in iter_rows(self.path):
                if row["task_id"] == key:
                    return leetcode_problem(row)
            raise ConfigError(f"no problem {key!r} in {self.path}", hint="keys are LeetCode slugs (task_id)")
        directory = self.path / key
        if self.kind == "dir" and is_ale_problem(directory):
            problem, seeds, standings = ale_problem(directory)
            return BenchProblem(
                key=key, problem=problem, hidden=[], case_counts=[], hidden_seeds=seeds, standings=standings
            )
        if not (directory / "problem.json").is_file():
            raise ConfigError(f"no problem {key!r} in {self.path}", hint="keys are the problems' folder names")
        if self.kind == "kickstart":
            return kickstart_problem(directory)
        return dir_problem(directory, key)


def open_dataset(spec: str) -> Dataset:
    """The dataset at `spec`: a path, or `KIND:PATH` to force the layout (kind is dir, kickstart,
    leetcodedataset, livecodebench).

    A `.jsonl` file whose lines are LiveCodeBench problems, or a folder of such files, is LiveCodeBench;
    another `.jsonl`/`.jsonl.gz` file (or a folder holding LeetCodeDataset's file) is LeetCodeDataset; a
    folder whose problems have `hidden` sets in their problem.json is Kick Start; else cpbot's own layout.
    """
    kind, _, rest = spec.partition(":")
    forced: Kind | None = None
    if kind in get_args(Kind) and rest:
        forced, spec = kind, rest  # type: ignore[assignment]
    path = Path(spec).expanduser()
    if not path.exists():
        raise ConfigError(
            f"no dataset at {spec}",
            hint="give a folder of problems (cpbot fetch -o), the Kick Start folder, or LeetCodeDataset's .jsonl.gz",
        )
    if path.is_dir() and (path / DATASET_FILE).is_file() and forced in (None, "leetcodedataset"):
        path = path / DATASET_FILE
    if forced is not None:
        return Dataset(kind=forced, path=path)
    if path.is_file() and path.name.endswith(".jsonl") and livecodebench.looks_like_release(path):
        return Dataset(kind="livecodebench", path=path)
    if path.is_dir() and any(livecodebench.looks_like_release(f) for f in sorted(path.glob("*.jsonl"))[:1]):
        return Dataset(kind="livecodebench", path=path)
    if path.is_file():
        if path.name.endswith((".jsonl", ".jsonl.gz")):
            return Dataset(kind="leetcodedataset", path=path)
        raise ConfigError(f"{path} is not a dataset", hint="a dataset is a folder, or a LeetCodeDataset .jsonl.gz")
    if is_ale_problem(path) or any(is_ale_problem(d) for d in sorted(path.iterdir()) if d.is_dir()):
        return Dataset(kind="dir", path=path)  # ALE-Bench's problem folders (`ale_bench.py`)
    first = path / "problem.json"
    if not first.is_file():
        first = next((d / "problem.json" for d in sorted(path.iterdir()) if (d / "problem.json").is_file()), first)
    if not first.is_file():
        raise ConfigError(f"no problem.json in {path} or its folders", hint="make problems with `cpbot fetch -o DIR`")
    data = bounds.loads(read_file(first, TEST_FILE), str(first))
    if not isinstance(data, dict):
        raise ConfigError(f"{first} is not a problem file (not a JSON object)")
    return Dataset(kind="kickstart" if "hidden" in data and "schema_version" not in data else "dir", path=path)


def count_cases(output: str) -> int:
    """How many `Case #i:` answers an expected output holds (0 when it is not in that form)."""
    return len(CASE_MARK.findall(output.encode("utf-8", "surrogateescape")))


def _case_split(samples: list[TestCase], hidden: list[TestCase]) -> tuple[Literal["whole", "case_lines"], list[int]]:
    """Count cases per hidden test when every expected output is a run of `Case #i:` answers."""
    outputs = [t.output or "" for t in [*samples, *hidden]]
    if outputs and all(o.lstrip().startswith("Case #1:") for o in outputs):
        return "case_lines", [max(1, count_cases(t.output or "")) for t in hidden]
    return "whole", [1] * len(hidden)


_KICKSTART_HINT = "see the Kick Start dataset's README for a problem folder's layout"


def _test_file(directory: Path, name: object) -> str:
    """A test file a dataset's problem.json names: inside the problem's folder (no `../`, absolute path or
    symlink elsewhere: a dataset must not make the bench read, and show, any file it likes), bounded."""
    if not isinstance(name, str):
        raise ConfigError(f"{directory / 'problem.json'}: a test file name must be a string, not {name!r}")
    return read_text_exact(inside(directory, name), directory)


def kickstart_problem(directory: Path) -> BenchProblem:
    """A Kick Start problem folder (see the dataset's README for the layout)."""
    where = directory / "problem.json"
    meta = bounds.loads(read_file(where, TEST_FILE), str(where))
    try:
        samples = [
            TestCase(input=s["input"], output=s["output"], origin="sample", name=f"sample-{i}")
            for i, s in enumerate(meta["samples"], start=1)
        ]
        hidden = [
            TestCase(
                input=_test_file(directory, h["input_file"]),
                output=_test_file(directory, h["output_file"]),
                origin="user",
                name=f"set-{h['set']}",
            )
            for h in meta["hidden"]
        ]
        problem = Problem(
            id=meta["id"],
            site="kickstart",
            title=meta["title"],
            statement=read_text_exact(directory / "statement.md", directory),
            limits=Limits(time_ms=meta["time_limit_ms"], memory_mb=meta["memory_limit_mb"]),
            samples=samples,
            checker=meta["checker"],
            difficulty=meta.get("difficulty"),
        )
    except ValidationError as e:
        raise ConfigError(f"{where}: {first_problem(e)}", hint=_KICKSTART_HINT) from None
    except (KeyError, TypeError, AttributeError) as e:  # a field missing, or of another shape
        raise ConfigError(
            f"{where}: not a Kick Start problem ({type(e).__name__}: {e})", hint=_KICKSTART_HINT
        ) from None
    case_format, counts = _case_split(samples, hidden)
    return BenchProblem(key=directory.name, problem=problem, hidden=hidden, case_counts=counts, case_format=case_format)


def dir_problem(directory: Path, key: str) -> BenchProblem:
    """A problem in cpbot's layout: `tests/sample-*` are shown to the agents, the other tests are hidden. A
    score-based problem is scored on `HIDDEN_SEEDS_FROM` onwards instead (the agents score on 0, 1, ...)."""
    try:
        problem = Problem.model_validate_json(read_file(directory / "problem.json", TEST_FILE))
    except ValueError as e:
        raise ConfigError(f"{directory / 'problem.json'} is not a cpbot problem file: {e}") from None
    if problem.heuristic is not None and problem_kind(problem.kind).scored:
        problem = tools_in(problem, directory).model_copy(update={"raw": None})
        seeds = list(range(HIDDEN_SEEDS_FROM, HIDDEN_SEEDS_FROM + problem.heuristic.seeds))
        return BenchProblem(
            key=key, problem=problem, hidden=[], case_counts=[], hidden_seeds=seeds, standings=read_standings(directory)
        )
    tests = load_tests_dir(directory / "tests") if (directory / "tests").is_dir() else []
    hidden = [t for t in tests if not t.name.startswith("sample-")]
    if not hidden:
        raise ConfigError(
            f"{directory} has no hidden tests",
            hint="put tests other than the samples in its tests/ folder as NAME.in / NAME.out",
        )
    sample_inputs = {s.input for s in problem.samples}
    hidden = [t for t in hidden if t.input not in sample_inputs]
    problem = problem.model_copy(update={"raw": None})
    case_format, counts = _case_split(problem.samples, hidden)
    return BenchProblem(key=key, problem=problem, hidden=hidden, case_counts=counts, case_format=case_format)


def description_examples(description: str) -> list[dict[str, str]]:
    """The `Input: ... Output: ...` examples of a LeetCode description, as dataset `input_output` cases."""
    return [{"input": m["input"].strip(), "output": m["output"].strip()} for m in _EXAMPLE.finditer(description)]


def leetcode_problem(raw: object) -> BenchProblem:
    """A LeetCodeDataset row: its description's examples become the samples, its other cases are hidden."""
    row = dataset_row(raw)
    examples = description_examples(row.problem_description)
    if re.search(r"->\s*str\s*:", row.starter_code):
        # examples quote string results ("abc"); the dataset's recorded outputs do not
        for ex in examples:
            if len(ex["output"]) >= 2 and ex["output"][0] == ex["output"][-1] == '"':
                ex["output"] = bounds.loads(ex["output"], f"{row.task_id}: an example's output")
    full = item_from_row(row)
    shown = (
        item_from_row(row.model_copy(update={"input_output": [DatasetCase(**e) for e in examples]}))
        if examples
        else None
    )
    samples = [
        t.model_copy(update={"origin": "sample", "name": f"sample-{i}"})
        for i, t in enumerate(shown.tests if shown else [], start=1)
    ]
    sample_inputs = {s.input for s in samples}
    hidden = [t for t in full.tests if t.input not in sample_inputs]
    problem = full.problem.model_copy(update={"samples": samples})
    if not hidden:
        raise ConfigError(f"{problem.id} has no hidden cases left after its examples")
    return BenchProblem(key=row.task_id, problem=problem, hidden=hidden, case_counts=[1] * len(hidden))


def lcb_problem(path: Path, question_id: str, time_limit_ms: int) -> BenchProblem:
    """A LiveCodeBench problem: the public tests are shown; public and private tests are judged."""
    return lcb_problem_at(livecodebench.locate(path, question_id), time_limit_ms)


def lcb_problem_at(summary: livecodebench.Summary, time_limit_ms: int) -> BenchProblem:
    """The LiveCodeBench problem whose release line `summary` locates (that line is all that is read)."""
    row = livecodebench.read_at(summary)
    problem, tests = livecodebench.to_problem(row, time_limit_ms=time_limit_ms)
    return BenchProblem(key=row.question_id, problem=problem, hidden=tests, case_counts=[1] * len(tests))
