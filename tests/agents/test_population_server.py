"""The population model: seeded draws in set proportions, the request kinds it recognises from cpbot's
own prompts, the problem it recognises from the statement, and solves against it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cpbot.agents.roles.testgen import generate_tests
from cpbot.agents.solve import solve
from cpbot.testing.population_server import (
    BAG_SIZE,
    Population,
    PopulationModel,
    Program,
    load_lab,
    main,
    request_kind,
    requested_family,
)
from cpbot.testing.scripted_server import ScriptedServer
from tests.agents.roles.helpers import sum_problem
from tests.paths import REPO

RIGHT = "a, b = map(int, input().split())\nprint(a + b)\n"
# both pass the samples (1 2, 10 20) and fail larger inputs
SMALL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n"
OFF_BY_ONE = "a, b = map(int, input().split())\nprint(a + b if b < 100 else a + b + 1)\n"
BRUTE = "a, b = map(int, input().split())\nprint(sum([a, b]))\n"
GEN = (
    "import random, sys\n"
    "n, seed = int(sys.argv[1]), int(sys.argv[2])\n"
    "r = random.Random(seed)\n"
    "print(r.randint(1, n), r.randint(1, n))\n"
)


def write_lab(root: Path, problem_id: str = "local:sum", title: str = "Sum") -> Path:
    """A lab folder (tests/fixtures/lab/README.md) for the sum problem: one right and two wrong programs."""
    folder = root / problem_id.replace(":", "_")
    (folder / "candidates").mkdir(parents=True)
    (folder / "problem.json").write_text(sum_problem(id=problem_id, title=title).model_dump_json())
    for name, source in (("right.py", RIGHT), ("small_only.py", SMALL_ONLY), ("off_by_one.py", OFF_BY_ONE)):
        (folder / "candidates" / name).write_text(source)
    (folder / "brute.py").write_text(BRUTE)
    (folder / "gen.py").write_text(GEN)
    lab = {
        "schema_version": 1,
        "origin": "mutant",
        "reference": "candidates/right.py",
        "brute": "brute.py",
        "generator": "gen.py",
        "hidden": {"generated": [{"n": 1000, "seed": 1}], "files": []},
        "candidates": [
            {"file": "candidates/right.py", "label": "right", "kind": "right", "origin": "mutant"},
            {"file": "candidates/small_only.py", "label": "wrong", "kind": "edge", "origin": "mutant"},
            {"file": "candidates/off_by_one.py", "label": "wrong", "kind": "off_by_one", "origin": "mutant"},
        ],
    }
    (folder / "lab.json").write_text(json.dumps(lab))
    return folder


def population(problem_id: str = "p", title: str = "P", right: int = 3, wrong: int = 7) -> Population:
    programs = [Program(f"r{i}.cpp", "cpp", f"// right {i}", True) for i in range(right)]
    programs += [Program(f"w{i}.cpp", "cpp", f"// wrong {i}", False) for i in range(wrong)]
    return Population(problem_id, title, f"The statement of {title}, long enough to be a key.", programs)


# ---- draws -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("pass_at_1", [0.3, 0.6, 0.0, 1.0])
def test_draws_hold_the_right_share_in_every_bag(pass_at_1):
    pop = population()
    model = PopulationModel([pop], pass_at_1=pass_at_1, seed=1)
    draws = [model.draw(pop) for _ in range(BAG_SIZE * 3)]
    for bag in range(3):
        rights = sum(p.right for p in draws[bag * BAG_SIZE : (bag + 1) * BAG_SIZE])
        assert rights == round(pass_at_1 * BAG_SIZE)
    assert [d.right for d in model.draws] == [p.right for p in draws]


def test_the_seed_sets_the_order_and_problems_draw_independently():
    a, b = population("a", "A"), population("b", "B")
    first = PopulationModel([a, b], pass_at_1=0.3, seed=7)
    alone = PopulationModel([a, b], pass_at_1=0.3, seed=7)
    other = PopulationModel([a, b], pass_at_1=0.3, seed=8)
    mixed = []
    for _ in range(10):
        mixed.append(first.draw(a).name)
        first.draw(b)  # draws for another problem in between change nothing for this one
    assert mixed == [alone.draw(a).name for _ in range(10)]
    assert mixed != [other.draw(a).name for _ in range(10)]
    assert len(Counter(mixed)) > 2  # the programs vary, not only right and wrong


def test_a_request_for_python_draws_python_programs_when_there_are_some():
    pop = population()
    pop.programs.append(Program("r.py", "python", "print(1)", True))
    model = PopulationModel([pop], pass_at_1=1.0, seed=0)
    assert {model.draw(pop, "python").name for _ in range(5)} == {"r.py"}


# ---- what the requests ask --------------------------------------------------------------------------


def test_every_prompt_of_a_single_program_team_is_recognised():
    prompts = REPO / "templates" / "prompts"
    # score-based problems' prompts are the score pool's (cpbot.testing.score_pool_server), not a population's
    theirs = ("bc_", "heuristic_")
    kinds = {p.stem: request_kind(p.read_text()) for p in prompts.glob("*.txt") if not p.stem.startswith(theirs)}
    assert kinds == {
        "coder": "program",
        "coder_revise": "program",
        "debug_instrument": "program",
        "debug_runtime": "program",
        "debug_stdio": "program",
        "debug_traces": "program",
        "debug_wrong_answer": "program",
        "testgen": "tests",
        "planner": "plan",
        "replanner": "plan",
        "selector": "selector",
        "checker": "checker",
        "analyst_classify": "analyst",
        "optimizer": "optimizer",
        "distinguisher": "distinguisher",
        "arbiter": "arbiter",
        "aimed": "aimed",
        "checker_writer": "checker_writer",
        "interactor_writer": "interactor_writer",
    }
    assert requested_family("Write the program in C++17, in one ```cpp block.") == "cpp"


def test_the_problem_is_recognised_by_its_title_or_statement():
    a, b = population("a", "Alpha"), population("b", "Beta")
    model = PopulationModel([a, b], pass_at_1=1.0)
    assert model.problem_of("You are the coder of ...\n# Beta\n\nThe statement ...") is b
    wrapped = a.statement.replace(" ", "\n")  # the statement's start, however its lines are broken
    assert model.problem_of(f"...\n{wrapped}\n...") is a
    assert model.problem_of("# Gamma\n") is None
    # statements of one archive often begin alike: the heading decides before the statement
    twin = Population("c", "Gamma", a.statement, [])
    assert PopulationModel([a, twin], pass_at_1=1.0).problem_of(f"# Gamma\n\n{a.statement}") is twin
    assert "do not know" in model.answer("You are the coder of a team.\n# Gamma\n")


# ---- against cpbot ----------------------------------------------------------------------------------


def test_lab_folders_load_with_labels_brute_and_generator(tmp_path):
    write_lab(tmp_path, "local:sum", "Sum")
    write_lab(tmp_path, "local:other", "Other")
    pops = load_lab(tmp_path)
    assert [p.problem_id for p in pops] == ["local:other", "local:sum"]
    assert [(p.name, p.right) for p in pops[1].programs] == [
        ("candidates/right.py", True),
        ("candidates/small_only.py", False),
        ("candidates/off_by_one.py", False),
    ]
    assert pops[1].brute.source == BRUTE and pops[1].generator.family == "python"
    assert load_lab(tmp_path / "local_sum")[0].title == "Sum"


@pytest.mark.parametrize(("pass_at_1", "right"), [(1.0, True), (0.0, False)])
def test_direct_returns_the_drawn_program(tmp_path, make_client, sandbox, pass_at_1, right):
    model = PopulationModel(load_lab(write_lab(tmp_path)), pass_at_1=pass_at_1, seed=3)
    with ScriptedServer(default=model) as server:
        result = solve(sum_problem(), strategy="direct", language="python3", model=make_client(server), sandbox=sandbox)
    assert result.status == "unverified"  # a wrong draw passes the samples too: that is the point
    assert result.calls == 1 and len(model.draws) == 1
    assert model.draws[0].right is right
    assert (result.solution.source == RIGHT) is right


def test_the_test_designer_gets_the_problems_own_generator_brute_force_and_inputs(tmp_path, make_client, sandbox):
    model = PopulationModel(load_lab(write_lab(tmp_path)), pass_at_1=0.3, seed=3)
    with ScriptedServer(default=model) as server:
        llm = make_client(server)
        suite = generate_tests(llm, sum_problem(), language="python3", count=3, sandbox=sandbox)
    assert suite.brute is not None and suite.brute.source.strip() == BRUTE.strip()
    assert suite.generator is not None and suite.generator.source.strip() == GEN.strip()
    assert len(suite.tests.tests) == 3 and all(t.output is not None for t in suite.tests.tests)
    assert model.draws == []  # no program was drawn for it


def test_run_as_a_script_it_serves_while_a_command_runs(tmp_path):
    folder = write_lab(tmp_path)
    ask = (
        "import os, openai\n"
        "c = openai.OpenAI(base_url=os.environ['CPBOT_BASE_URL'], api_key=os.environ['CPBOT_API_KEY'])\n"
        "r = c.chat.completions.create(model=os.environ['CPBOT_MODEL'], messages=["
        "{'role': 'user', 'content': 'You are the coder of a team.\\n# Sum\\n'}])\n"
        "raise SystemExit(0 if 'print(a + b)' in r.choices[0].message.content else 3)\n"
    )
    assert main([str(folder), "--pass-at-1", "1", "--seed", "5", "--", sys.executable, "-c", ask]) == 0
    assert main([str(folder), "--pass-at-1", "0", "--", sys.executable, "-c", ask]) == 3


def test_the_flawed_designer_draws_labelled_flaws_reproducibly_whatever_the_order(tmp_path):
    populations = load_lab(write_lab(tmp_path))
    prompt = "You are the test designer of a contest team.\n# Sum\nWrite 2 new small inputs"
    replies = []
    for _ in range(2):
        model = PopulationModel(populations, pass_at_1=0.5, seed=3, designer="flawed")
        replies.append([model.answer(prompt) for _ in range(6)])
        flaws = [d.flaw for d in model.designed]
    assert replies[0] == replies[1] and all(flaws)  # the same seed, the same replies; every one carries a flaw
    _, flawed = populations[0].designs()
    assert set(flawed) == {"shared_defect", "wrong_brute", "slow_brute", "bad_constraints", "ignores_n"}
    # a brute force sharing a defect is one of the problem's wrong candidates
    assert {d.brute.source for d in flawed["shared_defect"]} == {SMALL_ONLY, OFF_BY_ONE}
    only = PopulationModel(populations, pass_at_1=0.5, seed=3, designer="flawed", flaws=["shared_defect"])
    reply = only.answer(prompt)
    assert SMALL_ONLY.strip() in reply or OFF_BY_ONE.strip() in reply
    mixed = PopulationModel(populations, pass_at_1=0.5, seed=3, designer="mixed")
    for _ in range(20):
        mixed.answer(prompt)
    assert {bool(d.flaw) for d in mixed.designed} == {True, False}  # right replies as well as flawed ones
    default = PopulationModel(populations, pass_at_1=0.5, seed=3)
    assert BRUTE.strip() in default.answer(prompt) and default.designed[0].flaw == ""


def test_a_generator_that_breaks_the_constraints_negates_the_values_and_one_that_ignores_n_does(tmp_path):
    _, flawed = load_lab(write_lab(tmp_path))[0].designs()
    negative = flawed["bad_constraints"][0].generator
    fixed = flawed["ignores_n"][0].generator

    def run(source: str, n: int) -> str:
        return subprocess.run([sys.executable, "-c", source, str(n), "1"], capture_output=True, text=True).stdout

    assert all(int(v) < 0 for v in run(negative.source, 50).split())
    assert run(fixed.source, 5) == run(fixed.source, 500)


def test_the_servers_start_up_line_goes_to_stderr_so_a_commands_json_stays_alone_on_stdout(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"model": "m", "rules": []}), encoding="utf-8")
    command = [sys.executable, "-c", "print('{\"ok\": true}')"]
    for module, first in (("scripted_server", str(rules)), ("population_server", str(write_lab(tmp_path)))):
        run = subprocess.run(
            [sys.executable, "-m", f"cpbot.testing.{module}", first, "--", *command],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert json.loads(run.stdout) == {"ok": True}
        assert "model" in run.stderr and "127.0.0.1" in run.stderr
