import bisect
import sys

n = int(sys.stdin.readline())
print(bisect.bisect_left(range(n), n * 2 // 3))
