"""An OpenAI-compatible model on 127.0.0.1 that samples programs from a population: a stand-in for a
model's sampling, for tests and for measuring strategies.

Each problem has a population of candidate programs labelled right or wrong (every wrong one passes the
samples: a near miss, not noise). A request for a program (the coder's, a debugger's) gets a program
drawn for that problem. A request that carries a `seed` (cpbot sends one of its own with each request when a
seed is configured: `agents/seeding.py`) is answered by request: its draw is set by the server's `seed`, the
request's seed and its text, right with probability `pass_at_1`, whatever order requests arrive in. One
without gets the next draw of a shuffled bag in which a `pass_at_1` share of the programs are right, so the
proportion holds over every bag and the order is set by `seed` and by arrival. What the request says
(feedback, a failing test) changes nothing else, as with a model that does not learn from it.
The test designer gets inputs made by the problem's own generator, that generator, and its own brute
force; the planner, selector, checker and complexity analyst get a short well-formed answer. The
problem is recognised by its title or the start of its statement in the request, the kind of request
by the role the system prompt names ("You are the coder of ...").

Populations are read from the verification lab's folders (`tests/fixtures/lab/README.md`):
`load_lab(DIR)` reads every folder under DIR (or DIR itself when it is one). Standard library only,
serving through `scripted_server.ScriptedServer`.

    python -m cpbot.testing.population_server LAB_DIR [--pass-at-1 0.3] [--seed 1] [--latency 0]
    python -m cpbot.testing.population_server LAB_DIR --pass-at-1 0.6 -- cpbot solve ... --strategy cpbot
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cpbot.testing.flaws import FLAWS, Code, Design, DesignDraws, DesignerMode, built_designs, named_designs
from cpbot.testing.scripted_server import COMMAND_HELP, Delay, Reply, ScriptedServer, run_with_server, split_command

Family = Literal["cpp", "python"]
Kind = Literal[
    "program",
    "tests",
    "plan",
    "selector",
    "checker",
    "analyst",
    "optimizer",
    "distinguisher",
    "arbiter",
    "aimed",
    "checker_writer",
    "interactor_writer",
    "unknown",
]

BAG_SIZE = 20  # draws per shuffled bag; pass_at_1 * BAG_SIZE of them are right (rounded)
STATEMENT_KEY_CHARS = 120  # of the statement's start, to recognise a problem whose title is not in the request
GENERATOR_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Program:
    """A program of a population: its file name, language family, source, and whether it is right."""

    name: str
    family: Family
    source: str
    right: bool = True

    def fenced(self) -> str:
        return f"```{self.family}\n{self.source.rstrip()}\n```"


@dataclass
class Population:
    """One problem's candidates and its own brute force and generator."""

    problem_id: str
    title: str
    statement: str
    programs: list[Program]
    brute: Program | None = None
    generator: Program | None = None
    generator_path: Path | None = None  # to run it for the test designer's inputs (Python only)
    validator: Program | None = None  # lab.json's optional "validator": the designer's validator section
    checker: Program | None = None  # the problem's own checker program, handed out when a checker is asked for
    samples: list[tuple[str, str]] = field(default_factory=list)  # (input, output) of each sample
    named_flaws: dict[str, dict[str, Program]] = field(default_factory=dict)  # lab.json's `flaws`

    def designs(self) -> tuple[Design, dict[str, list[Design]]]:
        """The right test-designer reply, and the flawed ones this problem allows (cpbot/testing/flaws.py)."""
        code = _code
        right = Design("", code(self.brute), code(self.generator))
        wrong = [c for c in (code(p) for p in self.wrong) if c is not None]
        flawed = built_designs(right.brute, right.generator, wrong, self.samples)
        named = {flaw: {what: _code(p) for what, p in files.items()} for flaw, files in self.named_flaws.items()}
        flawed.update(named_designs(right.brute, right.generator, named))  # type: ignore[arg-type]
        return right, flawed

    @property
    def right(self) -> list[Program]:
        return [p for p in self.programs if p.right]

    @property
    def wrong(self) -> list[Program]:
        return [p for p in self.programs if not p.right]

    def headed_in(self, text: str) -> bool:
        """Whether a request holds this problem's heading (its title or id, as cpbot writes it)."""
        headings = [f"# {self.title}\n"] if self.title else []
        return any(h in text for h in [*headings, f"# {self.problem_id}\n"])

    def stated_in(self, flat: str) -> bool:
        """Whether a request (its whitespace collapsed) holds the start of this problem's statement."""
        start = " ".join(self.statement.split())[:STATEMENT_KEY_CHARS]
        return len(start) >= 20 and start in flat


def _code(program: Program | None) -> Code | None:
    return Code(program.name, program.family, program.source) if program is not None else None


def _fenced(code: Code) -> str:
    return f"```{code.family}\n{code.source.rstrip()}\n```"


def family_of_file(name: str) -> Family:
    """A program's language family from its file name: `.py` is Python, anything else C++."""
    return "python" if name.endswith(".py") else "cpp"


def _program(folder: Path, name: str | None, *, right: bool = True) -> Program | None:
    if not name:
        return None
    path = folder / name
    return Program(name=name, family=family_of_file(name), source=path.read_text(encoding="utf-8"), right=right)


def load_lab_folder(folder: Path) -> Population:
    """One problem folder of the lab format: `problem.json`, `lab.json` and the files they name."""
    problem = json.loads((folder / "problem.json").read_text(encoding="utf-8"))
    lab = json.loads((folder / "lab.json").read_text(encoding="utf-8"))
    if lab.get("schema_version") != 1:
        raise ValueError(f"{folder}/lab.json: schema_version {lab.get('schema_version')!r}, this reader knows 1")
    programs = []
    for entry in lab.get("candidates", []):
        program = _program(folder, entry["file"], right=entry["label"] == "right")
        if program is not None:
            programs.append(program)
    generator = lab.get("generator")
    named = {
        flaw: {what: _program(folder, file) for what, file in files.items() if what in ("brute", "generator")}
        for flaw, files in (lab.get("flaws") or {}).items()
    }
    return Population(
        problem_id=str(problem.get("id") or folder.name),
        title=str(problem.get("title") or ""),
        statement=str(problem.get("statement") or ""),
        programs=programs,
        brute=_program(folder, lab.get("brute")),
        generator=_program(folder, generator),
        generator_path=folder / generator if generator else None,
        validator=_program(folder, lab.get("validator")),
        samples=[(str(s.get("input", "")), str(s.get("output") or "")) for s in problem.get("samples", [])],
        named_flaws={flaw: {k: v for k, v in files.items() if v is not None} for flaw, files in named.items()},
        checker=_program(folder, problem.get("checker")) if (folder / str(problem.get("checker"))).is_file() else None,
    )


def load_lab(root: Path) -> list[Population]:
    """Every problem folder under `root` (or `root` itself when it is one), in name order."""
    if (root / "lab.json").is_file():
        return [load_lab_folder(root)]
    folders = sorted(p.parent for p in root.glob("*/lab.json"))
    if not folders:
        raise FileNotFoundError(f"no lab problem folders (with a lab.json) under {root}")
    return [load_lab_folder(folder) for folder in folders]


@dataclass(frozen=True)
class Draw:
    """One program handed out: for which problem, which one, right or not."""

    problem_id: str
    program: str
    right: bool


_ROLE = re.compile(r"You are the ([\w -]+?) of a")
_KINDS: dict[str, Kind] = {
    "coder": "program",
    "debugger": "program",
    "test designer": "tests",
    "planner": "plan",
    "algorithm selector": "selector",
    "error checker": "checker",
    "complexity analyst": "analyst",
    "optimizer": "optimizer",
    "tester": "distinguisher",
    "judge": "arbiter",
    "test hunter": "aimed",
    "checker writer": "checker_writer",
    "interactor writer": "interactor_writer",
}


def request_kind(text: str) -> Kind:
    """What a request asks for, from the role its prompt names."""
    match = _ROLE.search(text)
    return _KINDS.get(match.group(1).strip().lower(), "unknown") if match else "unknown"


def requested_family(text: str) -> Family | None:
    """The language a request wants its program in (the fence it asks for), if it says."""
    found = re.findall(r"```(cpp|python)\b", text)
    return found[-1] if found else None  # type: ignore[return-value]


@dataclass(frozen=True)
class Designed:
    """One test-designer reply handed out: for which problem, and the flaw it carries ("" when right)."""

    problem_id: str
    flaw: str


@dataclass
class _Bag:
    rng: random.Random
    items: list[bool] = field(default_factory=list)


class PopulationModel:
    """The replies: a callable from a request body to a `Reply` (or a `Delay` then the reply) for
    `ScriptedServer`. `draws` records every program handed out, in order; thread-safe."""

    def __init__(
        self,
        populations: Iterable[Population],
        *,
        pass_at_1: float,
        seed: int = 0,
        latency_s: float = 0.0,
        designer: DesignerMode = "right",
        flaws: Iterable[str] = (),
    ) -> None:
        if not 0 <= pass_at_1 <= 1:
            raise ValueError(f"pass@1 is a share between 0 and 1, not {pass_at_1}")
        self.populations = list(populations)
        self.pass_at_1 = pass_at_1
        self.seed = seed
        self.latency_s = latency_s
        self.draws: list[Draw] = []
        self.designer = designer
        self._designs = DesignDraws(designer, seed, tuple(flaws))
        self.designed: list[Designed] = []  # every test-designer reply, with its flaw, in order
        self._bags: dict[str, _Bag] = {}
        self._inputs: dict[tuple[str, int, str], list[str]] = {}
        self._lock = threading.Lock()

    # ---- recognising the request ----

    def problem_of(self, text: str) -> Population | None:
        """The population whose problem the request is about: by heading, else by the statement's start
        (statements of one archive often begin alike, so a heading decides first)."""
        headed = next((p for p in self.populations if p.headed_in(text)), None)
        if headed is not None:
            return headed
        flat = " ".join(text.split())
        return next((p for p in self.populations if p.stated_in(flat)), None)

    # ---- drawing ----

    def draw(self, population: Population, family: Family | None = None, request: str | None = None) -> Program:
        """A program for `population` (of `family` when it has programs in it): set by `request` (a key of the
        request: its seed and text) when given, else the next of the problem's bag."""
        pool = [p for p in population.programs if family is None or p.family == family] or population.programs
        right = [p for p in pool if p.right]
        wrong = [p for p in pool if not p.right]
        if request is not None:
            rng = random.Random(f"{self.seed}:{population.problem_id}:{request}")
            want_right = rng.random() < self.pass_at_1
            program = rng.choice((right if want_right else wrong) or right or wrong)
            with self._lock:
                self.draws.append(Draw(population.problem_id, program.name, program.right))
            return program
        with self._lock:
            bag = self._bags.get(population.problem_id)
            if bag is None:
                bag = self._bags[population.problem_id] = _Bag(random.Random(f"{self.seed}:{population.problem_id}"))
            if not bag.items:
                count = round(self.pass_at_1 * BAG_SIZE)
                bag.items = [True] * count + [False] * (BAG_SIZE - count)
                bag.rng.shuffle(bag.items)
            want_right = bag.items.pop()
            choices = (right if want_right else wrong) or right or wrong
            program = bag.rng.choice(choices)
            self.draws.append(Draw(population.problem_id, program.name, program.right))
        return program

    # ---- the replies ----

    def __call__(self, body: dict[str, Any]) -> Reply | Delay:
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
        seed = body.get("seed")
        request = f"{seed}:{hashlib.sha256(text.encode()).hexdigest()}" if isinstance(seed, int) else None
        answer = self.answer(text, request)
        reply = Reply(answer, prompt_tokens=_tokens(text), completion_tokens=_tokens(answer))
        return Delay(self.latency_s, reply) if self.latency_s > 0 else reply

    def answer(self, text: str, request: str | None = None) -> str:
        """The reply text to a request (`request`: its key, when it carries a seed; see `draw`)."""
        kind = request_kind(text)
        if kind == "analyst":
            guess = re.search(r"The fit's guess: (\S+)", text)
            return json.dumps({"complexity": guess.group(1) if guess else "O(n)", "why": "the measurements follow it"})
        if kind == "optimizer":
            return "OPTIMIZE: no"
        if kind in ("distinguisher", "arbiter"):
            return "I cannot tell."  # a sampling model's guess would be noise: selection rests on execution
        if kind in ("unknown", "interactor_writer"):
            return "I do not know what is asked."
        if kind == "selector":
            tags = re.search(r"use these names exactly\):\s*\n(.+)", text)
            first = tags.group(1).split(",")[0].strip() if tags else "implementation"
            return json.dumps({"branches": [{"tags": [first], "rationale": "the statement asks for it"}]})
        if kind == "checker":
            passed = re.search(r"Verdict AC\b", text) is not None
            decision = "PASS" if passed else "FIX"
            return json.dumps({"analysis": "", "error": "", "guidance": "fix the failing tests", "decision": decision})
        if kind == "plan":
            return json.dumps(
                {
                    "candidates": ["the direct method"],
                    "algorithm": "the direct method the statement describes",
                    "steps": ["read the input", "compute the answer", "print it"],
                    "complexity": "O(n log n)",
                }
            )
        population = self.problem_of(text)
        if population is None:
            return "I do not know this problem."
        if kind == "tests":
            return self.tests_reply(population, text) + self.inputs_reply(population, kind, text)
        if kind == "aimed":
            return self.inputs_reply(population, kind, text)
        if kind == "checker_writer":
            return f"The checker.\n{population.checker.fenced()}" if population.checker else "I cannot write one."
        if not population.programs:
            return f"I have no program for {population.problem_id}."
        return "Here is the program.\n" + self.draw(population, requested_family(text), request).fenced()

    def design(self, population: Population) -> Design:
        """The test designer's reply for `population`: its own brute force and generator (`right` mode), or a
        design drawn reproducibly among its right and flawed ones (cpbot/testing/flaws.py); recorded."""
        right, flawed = population.designs()
        with self._lock:
            chosen = right if self.designer == "right" else self._designs.draw(population.problem_id, right, flawed)
            self.designed.append(Designed(population.problem_id, chosen.flaw))
        return chosen

    def tests_reply(self, population: Population, text: str) -> str:
        """The test designer's three sections: generated inputs, the generator, the brute force."""
        wanted = re.search(r"Write (\d+) new small inputs", text)
        design = self.design(population)
        inputs = self.inputs(population, int(wanted.group(1)) if wanted else 3, design.generator)
        parts = ["## Inputs", *(f"```text\n{item.rstrip()}\n```" for item in inputs)]
        parts += ["## Generator", _fenced(design.generator) if design.generator else "(none)"]
        parts += ["## Brute force", _fenced(design.brute) if design.brute else "(none)"]
        return "\n\n".join(parts)

    def inputs_reply(self, population: Population, kind: Kind, text: str) -> str:
        """The request forms of the inputs side of the gate: for the test designer's request, its validator
        section (the folder's validator; none without one, so the solve checks shapes only); for the request
        aimed at a program ("find an input where it is wrong or slow"), a model that does not read the
        program: small inputs from the problem's generator, and that generator as the slow one."""
        if kind == "tests":
            return f"\n\n## Validator\n\n{population.validator.fenced()}" if population.validator else ""
        if kind != "aimed":
            return ""
        wanted = re.search(r"Write up to (\d+) small inputs", text)
        inputs = self.inputs(population, int(wanted.group(1)) if wanted else 3)
        parts = ["## Inputs", *(f"```text\n{item.rstrip()}\n```" for item in inputs)]
        slow = population.generator
        parts += ["## Slow input generator", slow.fenced() if slow and slow.family == "python" else "none"]
        return "\n\n".join(parts)

    def inputs(self, population: Population, count: int, generator: Code | None = None) -> list[str]:
        """`count` small inputs from a Python generator (the problem's own by default), the same for the same
        seed."""
        generator = generator or _code(population.generator)
        if generator is None or generator.family != "python":
            return []
        key = (population.problem_id, count, generator.name)
        with self._lock:
            if key in self._inputs:
                return self._inputs[key]
        made = []
        for i in range(count):
            run = subprocess.run(
                [sys.executable, "-c", generator.source, str(2 + 2 * i), str(self.seed * 1000 + i + 1)],
                capture_output=True,
                text=True,
                timeout=GENERATOR_TIMEOUT_S,
                check=False,
            )
            if run.returncode == 0 and run.stdout.strip():
                made.append(run.stdout)
        with self._lock:
            self._inputs[key] = made
        return made


def _tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))  # about four characters a token, as agents.llm estimates


def main(argv: list[str] | None = None) -> int:
    """Serve the populations of a lab folder on 127.0.0.1 until interrupted, or while a command runs."""
    parser = argparse.ArgumentParser(
        description="An OpenAI-compatible model drawing programs from populations.", epilog=COMMAND_HELP
    )
    parser.add_argument("lab", type=Path, help="a lab folder, or a folder of them (tests/fixtures/lab/README.md)")
    parser.add_argument("--pass-at-1", type=float, default=0.3, help="the share of right programs drawn (0.3)")
    parser.add_argument("--seed", type=int, default=0, help="the order of the draws (0)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each reply (0)")
    parser.add_argument("--model", default="population-model", help="the model name it answers to")
    parser.add_argument("--port", type=int, default=None, help="default 8765; a free one when running a command")
    parser.add_argument(
        "--designer",
        choices=("right", "flawed", "mixed"),
        default="right",
        help="the test designer's replies: the problem's own brute force and generator (right), or drawn from "
        "flawed variants only (flawed) or as well as right ones (mixed); cpbot/testing/flaws.py",
    )
    parser.add_argument("--flaw", action="append", choices=FLAWS, default=[], help="only these flaws (repeatable)")
    own, command = split_command(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(own)
    model = PopulationModel(
        load_lab(args.lab),
        pass_at_1=args.pass_at_1,
        seed=args.seed,
        latency_s=args.latency,
        designer=args.designer,
        flaws=args.flaw,
    )
    port = args.port if args.port is not None else (0 if command else 8765)
    with ScriptedServer(default=model, model=args.model, port=port) as server:
        print(
            f"population model {args.model!r} at {server.base_url} ({len(model.populations)} problems, "
            f"pass@1 {args.pass_at_1:g}, seed {args.seed}, designer {args.designer})",
            file=sys.stderr,
            flush=True,
        )
        return run_with_server(server, command)


if __name__ == "__main__":
    sys.exit(main())
