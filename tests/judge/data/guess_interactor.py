"""A testlib-protocol interactor for "guess the number" (argv: input tout answer).

The secret is in the input file; the solution asks "? x" and hears "<", ">" or "="; at most 20 questions.
"""

import sys

with open(sys.argv[1]) as f:
    secret = int(f.read().split()[0])
log = open(sys.argv[2], "w")  # noqa: SIM115 - kept open for the whole dialogue
print(1000000, flush=True)  # the range 1..n
for asked in range(1, 21):
    line = sys.stdin.readline()
    if not line:
        print("unexpected end of input", file=sys.stderr)
        sys.exit(8)  # testlib's code for an unexpected end of file
    parts = line.split()
    if len(parts) != 2 or parts[0] not in "?!":
        print(f"bad query {line!r}", file=sys.stderr)
        sys.exit(2)
    x = int(parts[1])
    log.write(f"{line.strip()}\n")
    if parts[0] == "!":
        if x == secret:
            print(f"guessed in {asked} queries", file=sys.stderr)
            sys.exit(0)
        print(f"wrong guess {x}, secret {secret}", file=sys.stderr)
        sys.exit(1)
    print("=" if x == secret else "<" if secret < x else ">", flush=True)
print("too many queries", file=sys.stderr)
sys.exit(1)
