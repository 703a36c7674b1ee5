import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
prefix = [0] * (n + 1)
for i in range(n):
    prefix[i + 1] = prefix[i] + int(data[2 + i])
out = []
for j in range(q):
    left, right = int(data[2 + n + 2 * j]), int(data[3 + n + 2 * j])
    out.append(prefix[right] - prefix[left])
print("\n".join(map(str, out)))
