# Codeforces 1702A "Round Down the Price": lower m to the largest power of ten not above it; print the decrease.
t = int(input())
for _ in range(t):
    m = input().strip()
    print(int(m) - 10 ** (len(m) - 1))
