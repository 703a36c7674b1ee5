"""The population model answers the inputs side's request forms: the test designer's validator section
(from the lab folder's validator) and the request aimed at a program."""

from __future__ import annotations

import json

from cpbot.agents.roles import aimed
from cpbot.agents.roles.testgen import generate_tests
from cpbot.judge.model import Solution
from cpbot.testing.population_server import PopulationModel, load_lab
from cpbot.testing.scripted_server import ScriptedServer
from tests.agents.roles.helpers import sum_problem
from tests.agents.roles.test_validator import STRICT
from tests.agents.test_population_server import GEN, RIGHT, write_lab


def lab_with_validator(root):
    folder = write_lab(root)
    (folder / "validator.py").write_text(STRICT)
    lab = json.loads((folder / "lab.json").read_text())
    (folder / "lab.json").write_text(json.dumps({**lab, "validator": "validator.py"}))
    return folder


def test_the_test_designer_s_reply_holds_the_folder_s_validator_and_it_passes_its_self_check(
    tmp_path, make_client, sandbox
):
    model = PopulationModel(load_lab(lab_with_validator(tmp_path)), pass_at_1=0.3, seed=3)
    with ScriptedServer(default=model) as server:
        suite = generate_tests(make_client(server), sum_problem(), language="python3", count=3, sandbox=sandbox)
    assert suite.validator is not None and suite.validator.source.strip() == STRICT.strip()
    assert suite.validator_note.startswith("validator accepts 2 samples")
    # without one in the folder the reply has no validator section: shapes only
    plain = PopulationModel(load_lab(write_lab(tmp_path / "plain")), pass_at_1=0.3, seed=3)
    assert "## Validator" not in plain.answer(server.requests[0].body["messages"][0]["content"] + "\n# Sum\n")


def test_the_aimed_request_gets_generated_inputs_and_the_generator_as_the_slow_one(tmp_path, make_client):
    model = PopulationModel(load_lab(lab_with_validator(tmp_path)), pass_at_1=0.3, seed=3)
    with ScriptedServer(default=model) as server:
        draft = aimed.ask(make_client(server), sum_problem(), Solution(language="python3", source=RIGHT), count=2)
    assert len(draft.inputs) == 2 and all(len(text.split()) == 2 for text in draft.inputs)
    assert draft.slow_generator is not None and draft.slow_generator.strip() == GEN.strip()
    assert model.draws == []
