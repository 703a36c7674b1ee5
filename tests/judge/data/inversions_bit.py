# Counts the inversions with a Fenwick tree after one question for the whole permutation: O(n log n).
import sys

n = int(input())
print("?", 1, n, flush=True)
p = list(map(int, sys.stdin.readline().split()))
tree = [0] * (n + 1)
count = 0
for seen, v in enumerate(p):
    i = v
    while i > 0:
        count -= tree[i]
        i -= i & -i
    count += seen
    i = v
    while i <= n:
        tree[i] += 1
        i += i & -i
print("!", count, flush=True)
