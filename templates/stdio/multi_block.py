# cpbot STD-IO template: a count t, then t test cases of several lines each.
# Fill in solve(): it reads one case from the shared tokens and returns its answer as text.
import sys

tokens = iter(sys.stdin.buffer.read().split())


def next_int() -> int:
    return int(next(tokens))


def next_str() -> str:
    return next(tokens).decode()


def solve() -> str:
    # READ this case, e.g.
    #   n = next_int()
    #   a = [next_int() for _ in range(n)]
    # SOLVE, then return the answer (several lines joined with "\n" if needed)
    return ""


def main() -> None:
    t = next_int()
    out = [solve() for _ in range(t)]
    sys.stdout.write("\n".join(out) + "\n")


main()
