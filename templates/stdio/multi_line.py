# cpbot STD-IO template: a count t, then t test cases of one line each.
# Fill in solve(line) with the answer for one case's line.
import sys


def solve(line: str) -> str:
    # READ the case from its line, e.g.
    #   n = int(line)   or   x, y = map(int, line.split())
    # SOLVE, then return the answer as text
    return ""


def main() -> None:
    lines = sys.stdin.read().split("\n")
    t = int(lines[0])
    out = [solve(lines[i]) for i in range(1, t + 1)]
    sys.stdout.write("\n".join(out) + "\n")


main()
