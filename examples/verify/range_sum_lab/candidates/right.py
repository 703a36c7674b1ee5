import sys
from itertools import accumulate

tokens = sys.stdin.read().split()
n = int(tokens[0])
sums = [0, *accumulate(map(int, tokens[2 : 2 + n]))]
queries = list(map(int, tokens[2 + n :]))
print("\n".join(str(sums[right] - sums[left]) for left, right in zip(queries[::2], queries[1::2], strict=True)))
