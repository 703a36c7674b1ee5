# N SEED: n numbers after a shape flag that is 1 only for seed 3 (a generator's rare killer shape)
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
print(n, 1 if seed == 3 else 0)
print(*range(n))
