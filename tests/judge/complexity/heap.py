import heapq
import sys

data = sys.stdin.buffer.read().split()
h = []
for x in data[1:]:
    heapq.heappush(h, int(x))
total = 0
while h:
    total = (total * 31 + heapq.heappop(h)) % 1000000007
print(total)
