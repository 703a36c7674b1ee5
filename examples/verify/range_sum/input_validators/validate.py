# Kattis protocol: exit 42 when the input is valid, 43 when it is not.
import re
import sys

INT = re.compile(r"0|[1-9][0-9]*")


def numbers(line, count):
    parts = line.split(" ")
    if len(parts) != count or not all(INT.fullmatch(p) for p in parts):
        sys.exit(43)
    return [int(p) for p in parts]


lines = sys.stdin.read().split("\n")
if lines[-1] != "":
    sys.exit(43)
lines.pop()
n, q = numbers(lines[0], 2)
if not (1 <= n <= 200000 and 1 <= q <= 200000) or len(lines) != 2 + q:
    sys.exit(43)
if any(a > 10**9 for a in numbers(lines[1], n)):
    sys.exit(43)
for line in lines[2:]:
    left, right = numbers(line, 2)
    if not left < right <= n:
        sys.exit(43)
sys.exit(42)
