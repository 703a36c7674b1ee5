# cpbot STD-IO template: one test per input.
# Fill in READ, SOLVE and PRINT; reading every token at once is the fast way in Python.
import sys


def main() -> None:
    tokens = iter(sys.stdin.buffer.read().split())

    def next_int() -> int:
        return int(next(tokens))

    def next_str() -> str:
        return next(tokens).decode()

    # READ, e.g.
    #   n = next_int()
    #   a = [next_int() for _ in range(n)]

    # SOLVE

    out: list[str] = []
    # PRINT: append lines to out; they are written once at the end
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
