"""A testlib-protocol interactor for "count the inversions of a hidden permutation" (argv: input tout answer).

The input file holds n and the permutation p. It says n; the solution may ask `? l r` to hear p_l .. p_r (the
lengths of its questions adding up to at most n), then answers `! c`, the number of pairs i < j with p_i > p_j.
"""

import bisect
import sys


def inversions(values):
    """Pairs i < j with values[i] > values[j]: each value counts the larger ones seen before it."""
    seen, count = [], 0
    for v in values:
        count += len(seen) - bisect.bisect(seen, v)
        bisect.insort(seen, v)
    return count


with open(sys.argv[1]) as f:
    n, *p = map(int, f.read().split())
print(n, flush=True)
left = n
while True:
    line = sys.stdin.readline()
    if not line:
        print("unexpected end of input", file=sys.stderr)
        sys.exit(8)  # testlib's code for an unexpected end of file
    parts = line.split()
    if len(parts) == 2 and parts[0] == "!" and parts[1].lstrip("-").isdigit():
        if int(parts[1]) == inversions(p):
            sys.exit(0)
        print(f"wrong count {parts[1]}", file=sys.stderr)
        sys.exit(1)
    if len(parts) != 3 or parts[0] != "?" or not (parts[1].isdigit() and parts[2].isdigit()):
        print(f"bad query {line!r}", file=sys.stderr)
        sys.exit(2)
    lo, hi = int(parts[1]), int(parts[2])
    if not 1 <= lo <= hi <= n or hi - lo + 1 > left:
        print(f"question {lo} {hi} out of range or over the budget", file=sys.stderr)
        sys.exit(1)
    left -= hi - lo + 1
    print(*p[lo - 1 : hi], flush=True)
