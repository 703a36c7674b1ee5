import sys

data = sys.stdin.buffer.read().split()
a = sorted([int(x) * 7 + i for i, x in enumerate(data[1:])])
print(a[len(a) // 2] if a else 0)
