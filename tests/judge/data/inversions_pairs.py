# Counts the inversions pair by pair: right, and O(n^2).
n = int(input())
print("?", 1, n, flush=True)
p = list(map(int, input().split()))
print("!", sum(p[i] > p[j] for i in range(n) for j in range(i + 1, n)), flush=True)
