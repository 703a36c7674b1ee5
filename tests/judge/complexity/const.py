import sys

n = int(sys.stdin.readline())
print(n * n % 1000003)
