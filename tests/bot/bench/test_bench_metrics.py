"""`cpbot bench` on real Kick Start and LeetCodeDataset problems against a scripted model (see support.py)."""

from __future__ import annotations

import gzip
import json

import pytest

from cpbot.bot.bench.datasets import description_examples
from cpbot.bot.bench.metrics import Metrics
from cpbot.bot.bench.report import markdown
from cpbot.bot.bench.runner import BenchReport
from cpbot.bot.report.plots import save_bench_png
from tests.bot.bench.conftest import API_KEY

# Hand-computed from the script in support.py. Kick Start: Bike Tour's partial program is right on
# all 100 cases of set 1 and on 5 of the 100 cases of set 2 (checked with a separate count over the
# files); Retype's first program gets no case, the retried one all 200. LeetCode: the stone game's
# reference passes its 10 hidden cases; the k-th character program passes the 12 of 22 with k <= 100.
KICKSTART = {
    "direct": {
        "pass_at_1": 0.0,
        "solved_at": {1: 0.0, 2: 0.0, 3: 0.0},
        "eff_at_1": 0.0,
        "ac_rate": 0.0,
        "case_pass_rate": 105 / 400,
        "weighted_case_pass_rate": (105 / 200 + 0 / 200) / 2,
        "case_pass_score": (105 / 200 * 1 + 0 / 200 * 0) / 2,  # Retype's program fails the sample
        "tle_rate": 0.0,
        "mle_rate": 0.0,
        "prompt_tokens": 100.0,
        "completion_tokens": 40.0,
        "calls": 1.0,
        "errors": 0,
    },
    "nala": {
        "pass_at_1": 0.0,
        "solved_at": {1: 0.0, 2: 0.5, 3: 0.5},  # Retype's second program is right
        "eff_at_1": 0.0,
        "ac_rate": 0.5,
        "case_pass_rate": (105 + 200) / 400,
        "weighted_case_pass_rate": (105 / 200 + 200 / 200) / 2,
        "case_pass_score": (105 / 200 + 200 / 200) / 2,
        "tle_rate": 0.0,
        "mle_rate": 0.0,
        "prompt_tokens": (100 + 200) / 2,  # Bike Tour 1 call, Retype 2 calls
        "completion_tokens": (40 + 80) / 2,
        "calls": 1.5,
        "errors": 0,
    },
}
LEETCODE_ONE = {
    "pass_at_1": 0.5,
    "solved_at": {1: 0.5, 2: 0.5, 3: 0.5},
    "eff_at_1": 0.5,
    "ac_rate": 0.5,
    "case_pass_rate": (10 + 12) / (10 + 22),
    "weighted_case_pass_rate": (10 / 10 + 12 / 22) / 2,
    "case_pass_score": (10 / 10 + 12 / 22) / 2,
    "tle_rate": 0.0,
    "mle_rate": 0.0,
    "prompt_tokens": 100.0,
    "completion_tokens": 40.0,
    "calls": 1.0,
    "errors": 0,
}
LEETCODE = {"direct": LEETCODE_ONE, "nala": LEETCODE_ONE}


def check(metrics: Metrics, expected: dict) -> None:
    for name, value in expected.items():
        got = getattr(metrics, name)
        assert got == (pytest.approx(value) if isinstance(value, float | dict) else value), name


@pytest.mark.parametrize(("name", "expected"), [("kickstart", KICKSTART), ("leetcode", LEETCODE)])
def test_every_metric_matches_the_values_computed_by_hand(benched, name, expected):
    report, store = benched(name)
    assert [s.strategy for s in report.strategies] == ["direct", "nala"]
    for s in report.strategies:
        assert s.overall.problems == 2
        check(s.overall, expected[s.strategy])
        # every problem of both sets is rated easy: the one difficulty group is the whole
        assert s.by_difficulty == {"easy": s.overall}
        accepted = s.overall.ac_rate > 0
        assert (s.overall.mean_time_ms_ac is not None) == accepted
        if accepted:
            assert 0 < s.overall.mean_time_ms_ac < 10_000 and s.overall.mean_memory_kb_ac > 0
    assert store.run(report.run_id).status == "done"


def test_each_pair_is_one_solve_run_linked_to_the_bench_and_holding_its_calls(benched):
    report, store = benched("kickstart")
    children = [r for r in store.list_runs(limit=None, kind="solve") if r.config.get("bench_run") == report.run_id]
    assert sorted((r.problem_id, r.strategy) for r in children) == sorted(
        (o.problem_id, o.strategy) for o in report.outcomes
    )
    for outcome in report.outcomes:
        child = store.run(outcome.run_id)
        assert child.status == outcome.status and child.strategy == outcome.strategy
        assert child.llm_calls == outcome.calls and child.prompt_tokens == outcome.prompt_tokens


def _prompts(store) -> list[str]:
    texts = []
    for child in store.list_runs(limit=None, kind="solve"):
        texts += [json.dumps(call.messages, ensure_ascii=False) + call.reply for call in store.llm_calls(child.id)]
    return texts


def test_hidden_tests_never_appear_in_any_recorded_prompt(benched, datasets):
    _, ks_store = benched("kickstart")
    _, lc_store = benched("leetcode")
    ks_prompts, lc_prompts = _prompts(ks_store), _prompts(lc_store)
    assert len(ks_prompts) == 5 and len(lc_prompts) == 4  # every call was recorded
    everything = "\n".join(ks_prompts + lc_prompts)
    assert API_KEY not in everything

    kickstart = datasets["kickstart"]
    for key in kickstart.problem_keys():
        item = kickstart.load(key)
        for sample in item.problem.samples:  # the check can see what a prompt holds
            assert json.dumps(sample.input)[1:-1] in everything
        for test in item.hidden:
            for text in (test.input, test.output):
                assert json.dumps(text)[1:-1] not in everything
                head = "\n".join(text.splitlines()[:3])  # nor any recognisable piece of it
                assert json.dumps(head)[1:-1] not in everything

    with gzip.open(datasets["leetcode"].path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    leaked = []
    for row in rows:
        shown = {ex["input"] for ex in description_examples(row["problem_description"])}
        assert shown and all(json.dumps(s)[1:-1] in everything for s in shown)
        for case in row["input_output"]:
            # a few short inputs ("k = 1") are written in the statement itself: that is no leak
            if case["input"] in shown or case["input"] in row["problem_description"]:
                continue
            if json.dumps(case["input"])[1:-1] in everything:
                leaked.append(case["input"])
    assert leaked == []


def test_report_as_json_and_as_a_plot(benched, tmp_path):
    report, _ = benched("leetcode")
    again = BenchReport.model_validate_json(report.model_dump_json())
    assert again == report and json.loads(report.model_dump_json())["schema_version"] == 1
    text = markdown(report, timings=False)
    # AC 50, then wrong solved 0 and unverified 100: direct never stresses, so it calls nothing solved
    assert "| direct | 2 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 0.0 | 100.0 | 68.8 | 77.3 | 77.3 |" in text
    assert "wall s" in markdown(report) and "wall s" not in text
    png = save_bench_png(report, tmp_path / "plot.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_the_plot_legend_covers_no_point_label(benched):
    import matplotlib.pyplot as plt

    from cpbot.bot.report.plots import bench_figure

    report, _ = benched("leetcode")
    fig = bench_figure(report)
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        legend = ax.get_legend().get_window_extent(renderer)
        labels = [t for t in ax.texts if t.get_text() in {s.strategy for s in report.strategies}]
        assert len(labels) == len(report.strategies)
        for text in labels:
            box = text.get_window_extent(renderer)
            assert not box.overlaps(legend), text.get_text()
            assert ax.bbox.contains(box.x1, box.y1) and ax.bbox.contains(box.x0, box.y0), text.get_text()
    finally:
        plt.close(fig)


def test_livecodebench_pass_at_k_counts_samples_per_problem():
    from cpbot.bot.bench.metrics import HiddenJudgement, ProblemOutcome, compute

    def solve(key: str, sample: int, ok: bool) -> ProblemOutcome:
        final = HiddenJudgement(verdict="AC" if ok else "WA", passed_tests=2 if ok else 1, total_tests=2)
        return ProblemOutcome(problem_id=key, key=key, strategy="direct", sample=sample, status="solved", final=final)

    # a: 2 of 5 samples right; b: 5 of 5
    outcomes = [solve("a", i, i < 2) for i in range(5)] + [solve("b", i, True) for i in range(5)]
    metrics = compute(outcomes)
    # every k up to the 5 samples: for a, 1 - C(3, k) / C(5, k)
    a = {1: 0.4, 2: 1 - 3 / 10, 3: 1 - 1 / 10, 4: 1.0, 5: 1.0}
    assert metrics.pass_at == pytest.approx({f"pass@{k}": (a[k] + 1.0) / 2 for k in range(1, 6)})
    assert metrics.ac_rate == 7 / 10  # the other metrics are over every solve
