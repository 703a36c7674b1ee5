"""Generator: n, then n random integers in [1, 1e9] (argv: N SEED)."""

import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed * 1000003 + n)
print(n)
print(*(rng.randint(1, 10**9) for _ in range(n)))
