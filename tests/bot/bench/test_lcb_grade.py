"""`cpbot grade` and `cpbot bench` on the LiveCodeBench sample: LiveCodeBench's evaluation format, pass@k,
C++ and Python generations, and the same verdicts from a bench and from grading the bench's programs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.tracing import EnvelopeEvent
from cpbot.bot.bench.datasets import open_dataset
from cpbot.bot.bench.executors import LocalExecutor
from cpbot.bot.bench.grade import Generation, eval_all, grade, markdown, read_generations
from cpbot.bot.bench.livecodebench import make_selection
from cpbot.bot.bench.passk import mean_pass_at_k, pass_at_k, reportable_ks
from cpbot.bot.bench.runner import RESULT_EVENT, finished_outcomes, make_plan, run_bench, start_bench, stored_plan
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Verdict
from tests.agents.support.scripted_server import Reply, ScriptedServer
from tests.bot.bench.conftest import STRATEGIES, settings_for
from tests.bot.bench.lcb_programs import RIGHT, SUM_EVEN, SUM_TWO
from tests.bot.bench.support import RETRY_MARK, prompt_text
from tests.paths import DATASETS

SAMPLE = DATASETS / "livecodebench" / "sample.jsonl"
# the keys LiveCodeBench writes per problem in its `_eval_all.json`
EVAL_ALL_KEYS = {
    "question_title", "question_content", "platform", "question_id", "contest_id", "contest_date", "starter_code",
    "difficulty", "output_list", "code_list", "graded_list", "pass@1", "metadata",
}  # fmt: skip


@pytest.fixture(scope="module")
def quick_sample():
    return open_dataset(str(SAMPLE)).model_copy(update={"time_limit_ms": 1000})


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 1, 0.4),
        (5, 2, 2, 0.7),  # 1 - C(3,2)/C(5,2) = 1 - 3/10
        (5, 2, 3, 0.9),  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        (5, 2, 4, 1.0),  # fewer than 4 wrong samples: any 4 include a right one
        (10, 3, 5, 1 - 21 / 252),  # 1 - C(7,5)/C(10,5)
        (10, 0, 5, 0.0),
        (10, 10, 1, 1.0),
        (200, 1, 1, 0.005),
    ],
)
def test_pass_at_k_matches_hand_computed_values(n, c, k, expected):
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_k_averages_over_problems_and_is_reported_only_where_every_problem_has_k_samples():
    assert mean_pass_at_k([(5, 2), (5, 5), (5, 0)], 2) == pytest.approx((0.7 + 1.0 + 0.0) / 3)
    assert reportable_ks([10, 5, 7]) == [1, 5]
    assert reportable_ks([3, 3]) == [1]
    with pytest.raises(ConfigError, match="at least 5 samples"):
        pass_at_k(3, 1, 5)


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def fenced(source: str, tag: str) -> str:
    return f"Reasoning first.\n\n```{tag}\n{source}```\n"


def test_grading_lcb_generations_writes_lcb_evaluation_format(quick_sample, sandbox, tmp_path):
    two = SUM_TWO["python3"]
    codes = [two["right"], two["wrong"], two["crash"], two["slow"], two["right"]]
    gens = write_json(
        tmp_path / "generations.json",
        [
            {"question_id": "abc900_a", "code_list": codes},
            # raw replies only: the code is extracted with cpbot's extraction; the last reply has none
            {"question_id": "3001", "output_list": [fenced(RIGHT["3001"], "python"), "I could not solve it."]},
        ],
    )  # fmt: skip
    found = read_generations(gens, "python3")
    assert found["3001"][1].source is None and "code" in found["3001"][1].note
    report = grade(quick_sample, found, sandbox, generations_file=str(gens))
    assert report.judged == 5  # the repeated right program is judged once
    entries = {e["question_id"]: e for e in eval_all(quick_sample, report, found)}
    assert list(entries) == ["3001", "abc900_a"]  # by question_id, as LiveCodeBench sorts
    sum_two = entries["abc900_a"]
    assert set(sum_two) == EVAL_ALL_KEYS
    assert sum_two["graded_list"] == [True, False, False, False, True]
    assert sum_two["pass@1"] == pytest.approx(0.4)
    assert sum_two["contest_date"] == "2023-08-19T00:00:00" and sum_two["platform"] == "atcoder"
    meta = [json.loads(m) for m in sum_two["metadata"]]
    assert "execution time" in meta[0]
    assert meta[1]["error_code"] == -2 and meta[1]["error_message"] == "Wrong Answer"
    assert (meta[1]["inputs"], meta[1]["expected"], meta[1]["output"]) == ("3 4\n", "7\n", "-1\n")
    assert meta[2]["error_code"] == -4 and "IndexError" in meta[2]["error"] and meta[2]["inputs"] == "3 4\n"
    assert meta[3]["error_code"] == -3 and meta[3]["error_message"] == "Time Limit Exceeded"
    sum_even = entries["3001"]
    assert sum_even["graded_list"] == [True, False]
    assert sum_even["code_list"][0] == RIGHT["3001"] and sum_even["code_list"][1] == ""
    assert sum_even["output_list"][1] == "I could not solve it."
    assert json.loads(sum_even["metadata"][1])["error_message"] == "No code extracted"
    # pass@1 by difficulty and overall: both problems are easy
    assert report.overall.pass_at == {"pass@1": pytest.approx((0.4 + 0.5) / 2)}
    assert list(report.by_difficulty) == ["easy"]
    assert report.verdicts == {"AC": 3, "RE": 1, "TLE": 1, "WA": 1, "no code": 1}


def test_grading_simple_jsonl_of_cpp_and_python_sources(quick_sample, sandbox, tmp_path):
    lines = [
        {"question_id": "3001", "language": "cpp17", "source": SUM_EVEN["cpp17"]["right"]},
        {"question_id": "3001", "language": "cpp17", "source": SUM_EVEN["cpp17"]["wrong"]},
        {"question_id": "3001", "language": "python3", "source": SUM_EVEN["python3"]["right"]},
        {"question_id": "abc900_a", "language": "cpp17", "source": SUM_TWO["cpp17"]["right"]},
        {"question_id": "abc900_a", "language": "cpp17", "source": "int main( {"},
    ]
    gens = tmp_path / "gens.jsonl"
    gens.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    found = read_generations(gens, "python3")
    report = grade(quick_sample, found, sandbox)
    by_id = {p.question_id: p for p in report.problems}
    assert [g.passed for g in by_id["3001"].generations] == [True, False, True]
    overflow = by_id["3001"].generations[1].metadata
    assert overflow["error_code"] == -2 and overflow["inputs"] == "[2000000000,2000000000,3]\n"
    assert [g.verdict for g in by_id["abc900_a"].generations] == [Verdict.AC, Verdict.CE]
    assert by_id["abc900_a"].generations[1].metadata["error_message"] == "Compilation Error"


def test_the_summary_names_the_modules_the_judged_python_lacks_and_the_fix(quick_sample, sandbox, tmp_path):
    missing = "import cpbot_no_such_module.linalg\n" + SUM_TWO["python3"]["right"]
    lines = [
        {"question_id": "abc900_a", "language": "python3", "source": missing},
        {"question_id": "abc900_a", "language": "python3", "source": "import cpbot_no_such_module\n" + missing},
        {"question_id": "abc900_a", "language": "python3", "source": "raise SystemExit(3)\n"},
    ]
    gens = tmp_path / "gens.jsonl"
    gens.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = grade(quick_sample, read_generations(gens, "python3"), sandbox)
    assert report.verdicts == {"RE": 3}
    assert report.missing_modules == {"cpbot_no_such_module": 2}
    text = markdown(report)
    assert "2 of the RE import modules the judged Python lacks (cpbot_no_such_module 2)" in text
    assert "cpbot setup-python" in text


def test_grading_selects_problems_and_refuses_unknown_ones(quick_sample, sandbox, tmp_path):
    gens = write_json(
        tmp_path / "g.json",
        [{"question_id": k, "code_list": [RIGHT[k]]} for k in ("abc900_a", "3400", "1999_C")],
    )
    found = read_generations(gens, "python3")
    report = grade(quick_sample, found, sandbox, selection=make_selection(since="2024-08-01", until="2025-02-01"))
    assert [p.question_id for p in report.problems] == ["1999_C", "3400"]
    assert report.missing == ["abc901_b", "2050_D"]
    assert report.overall.pass_at == {"pass@1": 1.0}
    assert set(report.by_difficulty) == {"medium", "hard"}
    bad = write_json(tmp_path / "bad.json", [{"question_id": "nope", "code_list": ["print(1)"]}])
    with pytest.raises(ConfigError, match="not in"):
        grade(quick_sample, read_generations(bad, "python3"), sandbox)


def test_the_grade_command_writes_the_evaluation_and_a_transcript(tmp_path, monkeypatch, sandbox, capsys):
    monkeypatch.setattr("cpbot.judge.sandbox.default_sandbox", lambda: sandbox)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    gens = write_json(tmp_path / "run.json", [{"question_id": k, "code_list": [v, v]} for k, v in RIGHT.items()])
    code = main(["grade", str(SAMPLE), str(gens), "--time-limit", "2000", "--difficulty", "hard", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"] == {"problems": 2, "generations": 4, "pass_at": {"pass@1": 1.0}}
    evaluation = json.loads((tmp_path / "run_eval_all.json").read_text())
    assert [e["question_id"] for e in evaluation] == ["2050_D", "3400"]
    assert all(e["graded_list"] == [True, True] for e in evaluation)
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        (run,) = store.list_runs(kind="grade")
        assert run.status == "done" and run.id == out["run_id"]
        results = [e.payload for e in store.events(run.id) if e.kind == "grade_result"]
    assert sorted((r["question_id"], r["index"], r["passed"]) for r in results) == [
        ("2050_D", 0, True), ("2050_D", 1, True), ("3400", 0, True), ("3400", 1, True),
    ]  # fmt: skip


# ---- the bench on the sample, then the bench's programs graded ----

WRONG_PALINDROME = "class Solution:\n    def isPalindrome(self, s: str) -> bool:\n        return True\n"
WRONG_TRANSPOSE = (
    "class Solution:\n    def transpose(self, grid: List[List[str]]) -> List[List[str]]:\n        return grid\n"
)
TITLES = {
    "Sum of Two": "abc900_a", "Sum of Even Elements": "3001", "Transpose Letters": "3150",
    "Palindrome Check": "3210", "Even Pairs": "1999_C", "Average Distance": "abc901_b",
    "Longest Plateau": "2050_D", "Mean Above Threshold": "3400",
}  # fmt: skip


class LcbScript:
    """Right programs, except: Palindrome Check always wrong; Transpose Letters wrong until asked again."""

    def __call__(self, body) -> Reply:
        text = prompt_text(body)
        for title, key in TITLES.items():
            if f"# {title}" in text:
                source = RIGHT[key]
                if key == "3210":
                    source = WRONG_PALINDROME
                elif key == "3150" and RETRY_MARK not in text:
                    source = WRONG_TRANSPOSE
                return Reply(fenced(source, "python"), prompt_tokens=100, completion_tokens=40)
        return Reply("I do not know this problem.")


class StopAfter:
    """An executor that is interrupted (as by Ctrl-C) after `n` results."""

    name = "stop-after"

    def __init__(self, inner, n: int) -> None:
        self.inner, self.n = inner, n

    def run(self, settings, pairs):
        for i, result in enumerate(self.inner.run(settings, pairs), start=1):
            yield result
            if i == self.n:
                raise KeyboardInterrupt

    def close(self) -> None:
        pass


def returned_program(store: TranscriptStore, run_id: str) -> str:
    """The last program a solve run wrote (the one it returned, for this script)."""
    attempts = [
        e.trace_event().envelope.payload
        for e in store.events(run_id)
        if e.kind == "envelope" and isinstance(e.trace_event(), EnvelopeEvent)
    ]
    return [a for a in attempts if isinstance(a, CodeAttempt)][-1].solution().source


def test_bench_on_the_sample_resumes_and_grading_its_programs_gives_its_verdicts(tmp_path, sandbox):
    dataset = open_dataset(str(SAMPLE)).model_copy(update={"time_limit_ms": 2000})
    with ScriptedServer(default=LcbScript()) as server, TranscriptStore(tmp_path / "t.sqlite3") as store:
        settings = settings_for(dataset, server)
        plan = make_plan(dataset, STRATEGIES, language="python3", model="scripted", budget=settings.budget, k=3)
        run_id = start_bench(store, plan, settings.llm.public())
        with pytest.raises(KeyboardInterrupt):
            run_bench(store, run_id, plan, settings, StopAfter(LocalExecutor(1, sandbox=sandbox), 5))
        before = {(key, s): o.run_id for (key, s, _), o in finished_outcomes(store, run_id).items()}
        assert len(before) == 5 and store.run(run_id).status == "interrupted"
        report = run_bench(store, run_id, plan, settings, LocalExecutor(2, sandbox=sandbox))
        results = [e for e in store.events(run_id) if e.kind == RESULT_EVENT]
        assert len(results) == 16  # 8 problems x 2 strategies, each pair once
        assert all(o.run_id == before[(o.key, o.strategy)] for o in report.outcomes if (o.key, o.strategy) in before)
        final = {(o.key, o.strategy): o.final.verdict for o in report.outcomes}
        expected = {(k, s): Verdict.AC for k in TITLES.values() for s in STRATEGIES}
        expected |= {("3210", "direct"): Verdict.WA, ("3210", "nala"): Verdict.WA, ("3150", "direct"): Verdict.WA}
        assert final == expected
        metrics = {s.strategy: s for s in report.strategies}
        assert metrics["direct"].overall.ac_rate == pytest.approx(6 / 8)
        assert metrics["nala"].by_difficulty["medium"].ac_rate == 1.0
        assert list(metrics["direct"].by_difficulty) == ["easy", "medium", "hard"]
        # the same programs through `cpbot grade`: one generation per strategy, in plan order
        lines = [
            {"question_id": o.key, "language": "python3", "source": returned_program(store, o.run_id)}
            for s in STRATEGIES
            for o in report.outcomes
            if o.strategy == s
        ]
    gens = tmp_path / "bench_programs.jsonl"
    gens.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    graded = grade(dataset, read_generations(gens, "python3"), sandbox)
    by_pair = {(p.question_id, STRATEGIES[i]): g for p in graded.problems for i, g in enumerate(p.generations)}
    assert {pair: g.verdict for pair, g in by_pair.items()} == final
    assert {pair: g.passed for pair, g in by_pair.items()} == {pair: v == Verdict.AC for pair, v in final.items()}


class AlternatingScript(LcbScript):
    """Like `LcbScript`, but Palindrome Check is right on every third request only (the 2nd, 5th, ...)."""

    def __init__(self) -> None:
        self.palindromes = 0

    def __call__(self, body) -> Reply:
        if "# Palindrome Check" in prompt_text(body):
            self.palindromes += 1
            if self.palindromes % 3 == 2:
                return Reply(fenced(RIGHT["3210"], "python"), prompt_tokens=100, completion_tokens=40)
        return super().__call__(body)


def test_bench_command_selects_problems_and_reports_pass_at_k_over_samples(tmp_path, monkeypatch, sandbox, capsys):
    monkeypatch.setattr("cpbot.judge.sandbox.default_sandbox", lambda: sandbox)
    with ScriptedServer(default=AlternatingScript()) as server:
        monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("CPBOT_BASE_URL", server.base_url)
        monkeypatch.setenv("CPBOT_API_KEY", "sk-test")
        argv = ["bench", str(SAMPLE), "--strategy", "direct", "--lang", "python3", "--platform", "leetcode"]
        argv += ["--difficulty", "easy", "--since", "2023-09-01", "--samples", "3", "-j", "1", "--json"]
        argv += ["--time-limit", "3000", "--csv", str(tmp_path / "metrics.csv")]
        code = main([*argv, "--model", "scripted", "--judge-slots", "2"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["samples"] == 3
    assert sorted({(o["key"], o["sample"]) for o in report["outcomes"]}) == [
        ("3001", 0), ("3001", 1), ("3001", 2), ("3210", 0), ("3210", 1), ("3210", 2),
    ]  # fmt: skip
    overall = report["strategies"][0]["overall"]
    # 3001: 3 of 3 samples right; 3210: 1 of 3 -> pass@1 = (1 + 1/3) / 2, pass@2 = (1 + (1 - 1/3)) / 2
    every_k = {"pass@1": pytest.approx(2 / 3), "pass@2": pytest.approx(5 / 6), "pass@3": pytest.approx(1.0)}
    assert overall["pass_at"] == every_k
    assert overall["problems"] == 6 and overall["ac_rate"] == pytest.approx(4 / 6)
    assert report["strategies"][0]["by_difficulty"]["easy"]["pass_at"] == every_k
    rows = list(csv.DictReader((tmp_path / "metrics.csv").read_text(encoding="utf-8").splitlines()))
    assert [(r["strategy"], r["difficulty"], r["n"]) for r in rows] == [("direct", "all", "6"), ("direct", "easy", "6")]
    assert [rows[0][f"LCB pass@{k}"] for k in (1, 2, 3)] == ["66.7", "83.3", "100.0"]
    assert rows[0]["AC"] == "66.7" and "SOLVED@<=3" in rows[0]
    # the HTML export of the bench shows the same table
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    assert main(["transcripts", "export", report["run_id"], "--html", str(tmp_path / "bench.html")]) == 0
    page = BeautifulSoup((tmp_path / "bench.html").read_text(encoding="utf-8"), "lxml")
    shown = [[td.get_text() for td in tr.select("td")] for tr in page.select("#results table.bench-metrics tr")[1:]]
    assert shown == [list(r.values()) for r in rows]
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        plan = stored_plan(store, report["run_id"])[1]
    assert plan.dataset.time_limit_ms == 3000 and plan.samples == 3
    assert plan.selection == make_selection(since="2023-09-01", platforms=("leetcode",), difficulties=("easy",))


def test_a_problem_cpbot_cannot_judge_fails_its_generations_and_does_not_stop_grading(sandbox, tmp_path):
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    odd = next(r for r in rows if r["question_id"] == "3001")
    odd = {
        **odd,
        "question_id": "9999",
        "difficulty": "Medium",  # capitals are read too
        "starter_code": "class Solution:\n    def count(self, seen: Dict[str, int]) -> int:\n        ",
        "metadata": json.dumps({"func_name": "count"}),
    }
    release = tmp_path / "test.jsonl"
    release.write_text("".join(json.dumps(r) + "\n" for r in [*rows, odd]), encoding="utf-8")
    dataset = open_dataset(str(release))
    gens = write_json(
        tmp_path / "g.json",
        [{"question_id": "9999", "code_list": ["x"]}, {"question_id": "3001", "code_list": [RIGHT["3001"]]}],
    )
    report = grade(dataset, read_generations(gens, "python3"), sandbox)
    by_id = {p.question_id: p for p in report.problems}
    assert by_id["3001"].generations[0].passed
    unjudged = by_id["9999"].generations[0]
    assert not unjudged.passed and unjudged.verdict == Verdict.IE and unjudged.metadata["error_code"] == -5
    assert "Dict" in report.unjudged["9999"] and by_id["9999"].difficulty == "medium"


def test_a_bench_task_on_a_problem_cpbot_cannot_make_is_an_error_outcome(tmp_path):
    from cpbot.agents.llm_settings import LLMConfig
    from cpbot.bot.bench.task import BenchSettings, run_task

    row = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[1])
    row["starter_code"] = "class Solution:\n    def sumEven(self, nums: Set[int]) -> int:\n        "
    release = tmp_path / "test.jsonl"
    release.write_text(json.dumps(row) + "\n", encoding="utf-8")
    llm = LLMConfig(base_url="http://127.0.0.1:9/v1", api_key="sk-unused", model="none", max_retries=0)
    settings = BenchSettings(dataset=open_dataset(str(release)), language="python3", llm=llm)
    outcome = run_task(settings, "3001", "direct").outcome
    assert outcome.status == "error" and "Set" in outcome.reason
    assert outcome.final.verdict is None and not outcome.final.accepted


def test_a_release_file_with_a_hostile_pickle_stops_grade_and_bench_without_running_it(tmp_path, monkeypatch, capsys):
    import base64
    import pickle
    import zlib

    from tests.bot.bench.test_livecodebench import Hostile

    marker = tmp_path / "ran"
    row = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])
    row["private_test_cases"] = base64.b64encode(zlib.compress(pickle.dumps(Hostile(marker)))).decode()
    release = tmp_path / "test.jsonl"
    release.write_text(json.dumps(row) + "\n", encoding="utf-8")
    gens = write_json(tmp_path / "g.json", [{"question_id": row["question_id"], "code_list": ["print(1)"]}])
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    assert main(["grade", str(release), str(gens)]) == 2
    assert "refused to read a pickle with opcode" in capsys.readouterr().err
    monkeypatch.setenv("CPBOT_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("CPBOT_API_KEY", "sk-unused")
    assert main(["bench", str(release), "--strategy", "direct", "--model", "none"]) == 2
    assert "refused to read a pickle with opcode" in capsys.readouterr().err
    assert not marker.exists()


def test_extract_takes_code_from_the_replies_even_where_a_code_list_is_given(tmp_path):
    reply = fenced(SUM_EVEN["cpp17"]["right"], "cpp")
    gens = write_json(tmp_path / "g.json", [{"question_id": "3001", "code_list": [""], "output_list": [reply]}])
    assert read_generations(gens, "cpp17")["3001"][0].source is None  # LCB's own extraction found none
    again = read_generations(gens, "cpp17", extract=True)["3001"][0]
    assert again.source == SUM_EVEN["cpp17"]["right"]
    assert again.output == reply and again.language == "cpp17"


def test_the_lcb_preamble_gives_python_stdin_programs_the_names_livecodebench_gives(quick_sample, sandbox, tmp_path):
    # no imports: deque, and pow with three arguments (math.pow would refuse them), as LiveCodeBench allows
    bare = "a, b = map(int, input().split())\nq = deque([a, b])\nprint(sum(q) + pow(2, 0, 5) - 1)\n"
    gens = write_json(tmp_path / "g.json", [{"question_id": "abc900_a", "code_list": [bare]}])
    found = read_generations(gens, "python3")
    plain = grade(quick_sample, found, sandbox)
    assert plain.problems[0].generations[0].verdict == Verdict.RE  # NameError: deque
    assert "NameError" in plain.problems[0].generations[0].metadata["error"]
    with_preamble = grade(quick_sample, found, sandbox, lcb_preamble=True)
    assert with_preamble.problems[0].generations[0].passed


def test_lcb_exact_compares_as_livecodebench_and_lists_where_the_default_differs(quick_sample, sandbox):
    from cpbot.bot.bench.grade import Generation

    right = json.loads((DATASETS / "livecodebench" / "right.json").read_text(encoding="utf-8"))
    near = right["3400"].replace("return sum(kept) / len(kept)", "return sum(kept) / len(kept) + 1e-7")
    assert near != right["3400"]
    sources = {"abc901_b": [right["abc901_b"]], "3400": [right["3400"], near]}  # 6 decimals; exact; within 1e-5
    gens = {
        qid: [Generation(question_id=qid, index=i, language="python3", source=s) for i, s in enumerate(items)]
        for qid, items in sources.items()
    }

    def verdicts(report):
        return {(p.question_id, g.index): g.verdict for p in report.problems for g in p.generations}

    default = grade(quick_sample, gens, sandbox)
    assert set(verdicts(default).values()) == {Verdict.AC} and not default.exact_differences
    exact = grade(quick_sample, gens, sandbox, lcb_exact=True)
    assert verdicts(exact) == {("abc901_b", 0): Verdict.WA, ("3400", 0): Verdict.AC, ("3400", 1): Verdict.WA}
    assert [(d.question_id, d.index, d.default, d.why) for d in exact.exact_differences] == [
        ("abc901_b", 0, Verdict.AC, "the statement allows an error (float:1e-6)"),
        ("3400", 1, Verdict.AC, "floats equal within 1e-5"),
    ]


def test_lcb_exact_loses_what_a_thread_never_joined_prints_after_the_main_code_as_livecodebench_does(
    quick_sample, sandbox
):
    from cpbot.bot.bench.grade import Generation
    from cpbot.bot.bench.livecodebench import THREAD_LOSS

    # the thread answers once the main code has ended (deterministically: it waits for the main thread to stop)
    unjoined = (
        "import sys, threading, time\n"
        "def main():\n"
        "    while threading.main_thread().is_alive():\n"
        "        time.sleep(0.001)\n"
        "    a, b = map(int, sys.stdin.readline().split())\n"
        "    print(a + b)\n"
        "threading.Thread(target=main).start()\n"
    )
    joined = unjoined.replace("threading.Thread(target=main).start()", "t = threading.Thread(target=main)\nt.start()")
    joined = joined.replace("    while threading.main_thread().is_alive():\n        time.sleep(0.001)\n", "")
    joined += "t.join()\n"
    sources = [unjoined, joined]
    gens = {"abc900_a": [Generation(question_id="abc900_a", index=i, language="python3", source=s) for i, s in
                         enumerate(sources)]}  # fmt: skip

    default = grade(quick_sample, gens, sandbox)
    assert [g.verdict for g in default.problems[0].generations] == [Verdict.AC, Verdict.AC]
    exact = grade(quick_sample, gens, sandbox, lcb_exact=True)
    assert [g.verdict for g in exact.problems[0].generations] == [Verdict.WA, Verdict.AC]
    assert [(d.index, d.default, d.why) for d in exact.exact_differences] == [(0, Verdict.AC, THREAD_LOSS)]
    assert THREAD_LOSS in markdown(exact)


def test_a_generation_stops_at_its_first_failing_test_unless_all_tests_are_asked_for(quick_sample, sandbox):
    # wrong where N is 3: on the first of the six tests and on the fourth
    wrong_first = "n = int(input())\na = list(map(int, input().split()))\nprint(sum(a) / n if n != 3 else -1)\n"
    found = {"abc901_b": [Generation(question_id="abc901_b", index=0, language="python3", source=wrong_first)]}
    stopped = grade(quick_sample, found, sandbox)
    everything = grade(quick_sample, found, sandbox, all_tests=True)
    first, every = stopped.problems[0].generations[0], everything.problems[0].generations[0]
    assert first.verdict == every.verdict == Verdict.WA
    assert every.passed_tests == 4 and first.passed_tests < 4  # the tests after the first failure did not all run
    assert "stopped at its first failure" in markdown(stopped)
    assert "every test run" in markdown(everything)


def test_leetcode_programs_are_syntax_checked_together_in_the_harness_driver(quick_sample, sandbox, slot_runs):
    import uuid

    # distinct programs no other test has checked; one does not compile, in the driver or alone
    sources = [f"# {uuid.uuid4().hex}\n{RIGHT['3001']}" for _ in range(3)] + [f"# {uuid.uuid4().hex}\ndef (:\n"]
    found = {
        "3001": [Generation(question_id="3001", index=i, language="python3", source=s) for i, s in enumerate(sources)]
    }
    report = grade(quick_sample, found, sandbox)
    verdicts = [g.verdict for g in report.problems[0].generations]
    assert verdicts == [Verdict.AC, Verdict.AC, Verdict.AC, Verdict.CE]
    started = [" ".join(argv) for argv in slot_runs]
    assert sum("py-syntax-check-many" in argv for argv in started) == 1  # all four in one run
    assert sum("py-syntax-check/" in argv for argv in started) == 1  # only the broken one again, for its log


def test_a_leetcode_problem_read_for_its_precheck_is_not_read_again_for_its_grading(quick_sample, sandbox, monkeypatch):
    import collections

    from cpbot.bot.bench import grade as grading

    reads: collections.Counter[str] = collections.Counter()
    read = grading.lcb_problem_at

    def counted(summary, time_limit_ms):  # type: ignore[no-untyped-def]
        reads[summary.question_id] += 1
        return read(summary, time_limit_ms)

    monkeypatch.setattr(grading, "lcb_problem_at", counted)
    monkeypatch.setattr(grading, "_problems", grading._ProblemCache())  # nothing kept from other tests
    found = {
        "3001": [Generation(question_id="3001", index=0, language="python3", source=RIGHT["3001"])],
        "abc900_a": [Generation(question_id="abc900_a", index=0, language="python3", source=RIGHT["abc900_a"])],
    }
    report = grade(quick_sample, found, sandbox)
    assert [g.verdict for p in report.problems for g in p.generations] == [Verdict.AC, Verdict.AC]
    assert reads == {"3001": 1, "abc900_a": 1}
    monkeypatch.setattr(grading, "PRECHECK_KEEP_BYTES", 0)  # none kept: read for the precheck, then for grading
    monkeypatch.setattr(grading, "_problems", grading._ProblemCache())
    reads.clear()
    grade(quick_sample, found, sandbox)
    assert reads == {"3001": 2, "abc900_a": 1}


def test_a_finished_task_is_replaced_before_its_result_is_handed_on():
    import threading

    second_started = threading.Event()

    def task(n: int, sandbox=None) -> int:  # type: ignore[no-untyped-def]
        if n == 2:
            second_started.set()
        return n

    results = LocalExecutor(1).results(task, [(1,), (2,)])
    assert next(results) == 1
    # the caller still holds the first result (recording it, say): the one thread is on the next task already
    assert second_started.wait(timeout=60)
    assert list(results) == [2]


def test_problems_expected_to_run_longest_are_graded_first(quick_sample):
    from cpbot.bot.bench import livecodebench
    from cpbot.bot.bench.grade import GradeSettings, longest_first

    summaries = livecodebench.index(quick_sample.path)
    settings = GradeSettings(dataset=quick_sample)
    tasks = [
        (settings, summaries[key], [Generation(question_id=key, index=0, language="python3", source="")])
        for key in ("abc900_a", "3001", "3150", "abc901_b", "3400", "2050_D")
    ]
    # hard, then medium, then easy, in file order within a difficulty
    assert [t[1].question_id for t in longest_first(tasks)] == [
        "3400",
        "2050_D",
        "3150",
        "abc901_b",
        "abc900_a",
        "3001",
    ]


def test_the_next_task_is_made_ready_while_one_runs_and_jobs_bounds_the_programs_running(
    quick_sample, sandbox, monkeypatch
):
    import threading

    from cpbot.bot.bench import grade as grading
    from cpbot.judge.sandbox.pool import Slot

    both_in = threading.Barrier(2, timeout=120)  # two tasks inside the judge at once, with -j 1
    judge_problem = grading.judge_problem
    calls = []

    def judge(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) <= 2:
            both_in.wait()
        return judge_problem(*args, **kwargs)

    running, most = [0], [0]
    lock = threading.Lock()
    start, wait = Slot.start, Slot.wait

    def started(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        return start(self, *args, **kwargs)

    def waited(self):  # type: ignore[no-untyped-def]
        try:
            return wait(self)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(grading, "judge_problem", judge)
    monkeypatch.setattr(Slot, "start", started)
    monkeypatch.setattr(Slot, "wait", waited)
    found = {
        key: [Generation(question_id=key, index=0, language="python3", source=f"# {key}\n{RIGHT[key]}")]
        for key in ("abc900_a", "abc901_b", "3001")
    }
    report = grade(quick_sample, found, sandbox, jobs=1)
    assert len(calls) == 3 and all(g.passed for p in report.problems for g in p.generations)
    assert most[0] == 1  # -j 1: never two programs (or syntax checks) at once, though two tasks were under way
