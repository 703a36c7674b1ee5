import sys

d = sys.stdin.read().split()
n, q = int(d[0]), int(d[1])
a = list(map(int, d[2 : 2 + n]))
print("\n".join(str(sum(a[int(d[2 + n + 2 * i]) : int(d[3 + n + 2 * i])])) for i in range(q)))
