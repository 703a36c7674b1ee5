"""Sources in a folder the sandbox cannot read (as root: a `mktemp -d` folder, root's home) build and run
for `profile` and `stress` as they do for `judge`: staged with the headers beside them."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a folder only root can read needs root")

SOLUTION = (
    '#include <bits/stdc++.h>\n#include "helper.h"\n'
    'int main() { long long n; std::cin >> n; std::cout << twice(n) / 2 << "\\n"; }\n'
)
HELPER = "inline long long twice(long long x) { return 2 * x; }\n"
BRUTE = "print(int(input()))\n"
GEN = "import sys\nprint(int(sys.argv[1]) * 7 + int(sys.argv[2]))\n"


@pytest.fixture
def private_dir():
    path = Path(tempfile.mkdtemp(prefix="cpbot-private-"))  # mode 0700, owned by root
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_stress_builds_sources_from_a_folder_only_root_can_read(private_dir: Path, capsys):
    assert private_dir.stat().st_mode & 0o777 == 0o700
    for name, text in (("sol.cpp", SOLUTION), ("helper.h", HELPER), ("brute.py", BRUTE), ("gen.py", GEN)):
        (private_dir / name).write_text(text)
        os.chmod(private_dir / name, 0o600)
    d = private_dir
    code = main(
        [
            "stress",
            str(d / "sol.cpp"),
            "--brute",
            str(d / "brute.py"),
            "--gen",
            str(d / "gen.py"),
            "--budget",
            "5",
            "--json",
        ]
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    report = json.loads(out.out)
    assert report["status"] == "clean" and report["runs"] == 5
