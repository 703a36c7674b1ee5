# cpbot STD-IO template: a header line with the dimensions (and maybe more values), then one row per line.
# Keep the reader that matches the rows: strings of characters or numbers separated by spaces.
import sys


def main() -> None:
    lines = sys.stdin.read().split("\n")
    header = lines[0].split()
    n, m = int(header[0]), int(header[1])  # rows, columns: check the order the statement gives them in
    # READ any other values of the header line from header[2:]

    # Rows of characters ("#..#"):
    grid = [lines[1 + i].strip() for i in range(n)]
    # Rows of numbers instead:
    #   a = [list(map(int, lines[1 + i].split())) for i in range(n)]

    # SOLVE

    out: list[str] = []
    # PRINT: append lines to out
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
