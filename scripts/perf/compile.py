"""Compile time of cpbot's C++ build (precompiled bits/stdc++.h, in the sandbox) against plain `g++ -O2`.

Each round compiles a fresh variant of a typical contest solution both ways (a comment makes the source
unique, so the compile cache is not used); prints the medians and their ratio.

    python scripts/perf/compile.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from cpbot.judge.languages import get_language
from cpbot.judge.languages.cpp import precompiled_header
from cpbot.judge.sandbox import Sandbox

SOLUTION = """#include <bits/stdc++.h>
using namespace std;
// round {round}
int main() {{
    ios::sync_with_stdio(false); cin.tie(nullptr);
    int t; cin >> t;
    while (t--) {{
        int n; cin >> n;
        vector<long long> a(n);
        for (auto& x : a) cin >> x;
        sort(a.begin(), a.end());
        map<long long, int> seen;
        long long best = 0;
        for (int i = 0; i < n; i++) {{ seen[a[i]]++; best = max(best, a[i] * (long long)seen[a[i]]); }}
        priority_queue<long long> pq(a.begin(), a.end());
        set<long long> s(a.begin(), a.end());
        cout << best + (long long)s.size() + (pq.empty() ? 0 : pq.top()) << '\\n';
    }}
}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    cpp = get_language("cpp17")
    precompiled_header(cpp.flags)  # built once, outside the timing
    cpbot_times, plain_times = [], []
    with Sandbox(2) as sandbox, tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            source = SOLUTION.format(round=f"{time.time_ns()}-{r}")
            t = time.perf_counter()
            build = cpp.build(source, sandbox)
            cpbot_times.append(time.perf_counter() - t)
            assert build.program is not None and not build.cached, build.log
            src = Path(tmp) / "plain.cpp"
            src.write_text(source + "// plain\n")
            t = time.perf_counter()
            subprocess.run(["g++", "-O2", "-std=c++17", str(src), "-o", str(Path(tmp) / "plain")], check=True)
            plain_times.append(time.perf_counter() - t)
    cpbot_s, plain_s = statistics.median(cpbot_times), statistics.median(plain_times)
    print(f"rounds: {args.rounds}")
    print(f"plain g++ -O2 median:           {plain_s:.3f} s")
    print(f"cpbot build (PCH, sandboxed):   {cpbot_s:.3f} s")
    print(f"ratio cpbot / plain:            {cpbot_s / plain_s:.2f}")


if __name__ == "__main__":
    main()
