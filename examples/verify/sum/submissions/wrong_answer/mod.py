# right until a sum reaches 100: the secret test with 100 + 100 shows it
a, b = map(int, input().split())
print((a + b) % 100)
