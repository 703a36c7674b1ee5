# cpbot STD-IO template: an interactive problem. Flush after every line printed, and read replies
# line by line (reading all input at once would wait forever).
import sys


def ask(x: int) -> int:
    # the query format comes from the statement, e.g. "? x"
    print(f"? {x}", flush=True)
    reply = int(sys.stdin.readline())
    if reply == -1:  # the judge says the interaction went wrong: stop at once
        sys.exit(0)
    return reply


def answer(x: int) -> None:
    print(f"! {x}", flush=True)


def solve() -> None:
    # READ this case's opening values with sys.stdin.readline(), then ask() and answer()
    pass


def main() -> None:
    t = 1
    # if the statement has test cases: t = int(sys.stdin.readline())
    for _ in range(t):
        solve()


main()
