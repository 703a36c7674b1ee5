"""The lab's report as Markdown tables (the terminal output of `cpbot lab`, pasted into docs as is)."""

from __future__ import annotations

from cpbot.bot.lab.measure import CONFIGS, Figures, LabReport

TITLES = {
    "samples": "samples only",
    "generated": "+ generated tests",
    "stress": "+ stress (sizes <= 8)",
    "profile": "+ profile (the gate before)",
    "ladder": "+ size ladder (default gate)",
}


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def figures_table(rows: list[Figures]) -> list[str]:
    """Precision, recall, what got through and seconds per candidate, one line per configuration."""
    lines = [
        "| configuration | precision | recall | wrong let through | right let through | s/candidate |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for f in rows:
        lines.append(
            f"| {TITLES.get(f.config, f.config)} | {_share(f.precision)} | {_share(f.recall)} | "
            f"{f.wrong_let_through}/{f.wrong} | {f.right_let_through}/{f.right} | {f.seconds_per_candidate:.2f} |"
        )
    return lines


def report_text(report: LabReport) -> str:
    """Every table of the report: overall, with and without an oracle, then wrong programs let through
    per origin and kind."""
    out = [f"{report.problems} problems, {len(report.results)} candidates", "", "All candidates:", ""]
    out += figures_table(report.overall)
    for name, title in (("oracle", "With a brute force and a generator"), ("no oracle", "Without them")):
        if name in report.slices:
            out += ["", f"{title}:", "", *figures_table(report.slices[name])]
    out += ["", "Wrong programs let through, by origin and kind:", ""]
    out.append("| slice | wrong | " + " | ".join(TITLES[c] for c in CONFIGS) + " |")
    out.append("| --- | --- |" + " --- |" * len(CONFIGS))
    for name, rows in sorted(report.slices.items()):
        if name.startswith(("origin:", "kind:")) and rows[0].wrong:
            out.append(f"| {name} | {rows[0].wrong} | " + " | ".join(str(f.wrong_let_through) for f in rows) + " |")
    if report.label_mismatches:
        out += ["", "Labels that disagree with the hidden tests:", *(f"- {m}" for m in report.label_mismatches)]
    return "\n".join(out)
