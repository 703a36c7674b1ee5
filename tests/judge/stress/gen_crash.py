import sys

n = int(sys.argv[1])
if n >= 3:
    raise SystemExit("cannot make inputs this big")
print(n)
print(*range(1, n + 1))
