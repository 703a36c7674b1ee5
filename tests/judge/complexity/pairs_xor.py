# Quadratic and far too slow for its maximum n: already slow at the schedule's first sizes.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
a = list(map(int, data[1 : n + 1]))
best = 0
for i in range(n):
    ai = a[i]
    for j in range(i + 1, n):
        x = ai ^ a[j]
        if x > best:
            best = x
print(best)
