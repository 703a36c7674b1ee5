import sys

data = sys.stdin.buffer.read().split()
a = [int(x) for x in data[1:]]
target = sum(a) // 3
best = 0
sums = [0]
for x in a:
    sums += [s + x for s in sums]
for s in sums:
    if best < s <= target:
        best = s
print(best)
