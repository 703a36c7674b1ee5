n = int(input())
total = 0
for value in input().split():
    total += int(value)
print(total)
