"""The README's offline examples (section "Try it offline") run as documented and do what they say.

Each fenced bash block of that section runs with `bash -e` in a copy of `examples/`, with this
environment's `cpbot` and `python` first on PATH, as a user with the venv activated would run it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

SECTION = "## Try it offline"
# what each block (named by the first word of its first comment) must print
EXPECTED = {
    "judge": [r"\bAC\b"],
    "fetch": [r"codeforces:1702A", r"\bAC\b"],
    "stress": [r"clean: no difference", r"WA after \d+ runs .*n=2", r"fit: O\("],
    "edit": [r"saved as \S*loop/tests/stress-000\.in", r"stress-000 +WA", r"judging wrong\.cpp on 1 test"],
    "bench": [r"maximum: WA, 2/3 cases", r"sum: AC, 3/3 cases", r"unverified: AC", r"local:example-sum"],
    "verify": [
        r"validator-mutations",
        r"OK\s+wrong_answer/mod\.py\s+WA",
        r"PASSED",
        r"ERROR\s+direct#1\s+passes all 3 tests but is wrong: stress: WA",
        r"saved as ai-hack-000\.in/\.ans",
    ],
    "grade": [
        r"\| all \| 3 \| 6 \| 66\.7 \|",
        r"AC 4, WA 1, no code 1",
        r"\[\[True, False\], \[True, True\], \[True, False\]\]",
    ],
}


def readme_blocks() -> dict[str, str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    blocks = re.findall(r"```bash\n(.*?)```", text[start : end if end > 0 else None], re.S)
    named = {}
    for block in blocks:
        first_comment = next(line for line in block.splitlines() if line.startswith("#"))
        named[first_comment.lstrip("# ").split(":", 1)[0].split()[0]] = block
    return named


def test_the_section_has_a_block_for_every_main_command() -> None:
    assert set(readme_blocks()) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs_as_documented(name: str, tmp_path: Path) -> None:
    script = readme_blocks()[name]
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    for key in ("CPBOT_BASE_URL", "CPBOT_MODEL", "CPBOT_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        env.pop(key, None)
    done = subprocess.run(
        ["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    for pattern in EXPECTED[name]:
        assert re.search(pattern, output), (pattern, output[-4000:])
    if name == "stress" and shutil.which("valgrind"):
        assert "O(n log n)" in output  # read from instruction counts: exact, whatever the machine's load
