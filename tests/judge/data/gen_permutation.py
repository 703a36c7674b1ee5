"""`gen_permutation.py N SEED`: n and a random permutation of 1..n (the inversions interactor's hidden data)."""

import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
p = list(range(1, n + 1))
random.Random(seed).shuffle(p)
print(n)
print(*p)
