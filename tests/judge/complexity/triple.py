import sys

data = sys.stdin.buffer.read().split()
a = [int(x) & 3 for x in data[1:]]
n = len(a)
count = 0
for i in range(n):
    for j in range(i + 1, n):
        x = a[i] ^ a[j]
        for k in range(j + 1, n):
            if x == a[k]:
                count += 1
print(count)
