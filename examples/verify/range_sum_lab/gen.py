import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
random.seed(seed)
top = random.choice([n, 10**9])
print(n, n)
print(*(random.randint(0, top) for _ in range(n)))
for _ in range(n):
    left = random.randint(0, n - 1)
    print(left, random.randint(left + 1, n))
