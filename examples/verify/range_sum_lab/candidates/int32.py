import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
prefix = [0] * (n + 1)
for i in range(n):
    # keeps the sum in a signed 32-bit integer, as `int` does in C++
    prefix[i + 1] = (prefix[i] + int(data[2 + i]) + 2**31) % 2**32 - 2**31
out = []
for j in range(q):
    left, right = int(data[2 + n + 2 * j]), int(data[3 + n + 2 * j])
    out.append((prefix[right] - prefix[left] + 2**31) % 2**32 - 2**31)
print("\n".join(map(str, out)))
