import sys

data = sys.stdin.buffer.read().split()
a = [int(x) & 1 for x in data[1:]]
count = 0
for i in range(len(a)):
    ai = a[i]
    for j in range(i + 1, len(a)):
        count += ai ^ a[j]
print(count)
