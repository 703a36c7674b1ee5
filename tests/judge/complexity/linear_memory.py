import sys

data = sys.stdin.buffer.read().split()
prefix = [0]
for x in data[1:]:
    prefix.append(prefix[-1] + int(x))
pairs = [(p, i) for i, p in enumerate(prefix)]
print(len(pairs), prefix[-1])
