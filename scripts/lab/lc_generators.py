"""Input generators (`gen.py N SEED`) and the few brute forces written for the lab's Library Checker
problems, as the sources `import_library_checker.py` writes into each problem's folder.

They stand in for what the test generator role asks a model to write: random inputs of size N within
the statement's constraints; value ranges drawn per seed (small ranges make ties and repeats, full
ranges make large sums). They are the lab's own, not Library Checker's (whose generators make only
maximal tests from a seed).
"""

HEAD = """import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
random.seed(seed)


def R(a, b):  # random.randint, three times faster
    return a + int(random.random() * (b - a + 1))


"""

GENERATORS = {
    "static_range_sum": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
for _ in range(n):
    l = R(0, n - 1)
    print(l, R(l + 1, n))
""",
    "point_add_range_sum": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
for _ in range(n):
    if R(0, 1):
        l = R(0, n - 1)
        print(1, l, R(l + 1, n))
    else:
        print(0, R(0, n - 1), R(0, hi))
""",
    "range_affine_range_sum": """M = 998244353
hi = random.choice([n, M - 1])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
for _ in range(n):
    l = R(0, n - 1)
    r = R(l + 1, n)
    if R(0, 1):
        print(0, l, r, R(1, hi), R(0, hi))
    else:
        print(1, l, r)
""",
    "range_kth_smallest": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
for _ in range(n):
    l = R(0, n - 1)
    r = R(l + 1, n)
    print(l, r, R(0, r - l - 1))
""",
    "static_range_inversions_query": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
for _ in range(n):
    l = R(0, n - 1)
    print(l, R(l + 1, n))
""",
    "rectangle_sum": """hi = random.choice([n, 10**9])
print(n, n)
for _ in range(n):
    print(R(0, hi), R(0, hi), R(0, 10**9))
for _ in range(n):
    l, r = sorted(random.sample(range(hi + 1), 2))
    d, u = sorted(random.sample(range(hi + 1), 2))
    print(l, d, r, u)
""",
    "majority_voting": """hi = random.choice([1, 3, n, 10**9])
print(n, n)
if random.random() < 0.25:  # a bare majority over two other values in every window of w, queried window by window
    w = max(1, n // 4) | 1
    x = random.sample(range(hi + 1), 3) if hi >= 2 else [0, 1, 2]
    block = [x[0]] * ((w + 1) // 2) + [x[1]] * ((w - 1) // 4) + [x[2]] * (w - (w + 1) // 2 - (w - 1) // 4)
    random.shuffle(block)
    print(*(block[i % w] for i in range(n)))
    for i in range(n - w + 1):
        print(1, i, i + w)
    queries = w - 1
else:
    print(*(R(0, hi) for _ in range(n)))
    queries = n
for _ in range(queries):
    if R(0, 1):
        l = R(0, n - 1)
        print(1, l, R(l + 1, n))
    else:
        print(0, R(0, n - 1), R(0, hi))
""",
    "segment_add_get_min": """A = random.choice([n, 10**9])
B = random.choice([n, 10**18])
def seg():
    l = R(-A, A - 1)
    return f"{l} {R(l + 1, A)} {R(-A, A)} {R(-B, B)}"
print(n, n)
if random.random() < 0.25:  # nested flat segments, then one line crossing them all, n - 1 times
    A, segs = 10**9, []
    def conquer(l, r, width):
        mid = int((l + r) / 2)  # rounded toward zero, as in C
        if r - l > width and len(segs) < n:
            conquer(l, mid, width)
            conquer(mid + 1, r, width)
            segs.append(f"{l} {r + 1} 0 {mid}")
    conquer(-A, A - 1, 2 * A // n)
    segs = segs[:n] + [seg() for _ in range(n - len(segs))]
    print(*segs, sep="\\n")
    for _ in range(n - 1):
        print(f"0 {-A} {A} 1 0")
    print("1 0")
else:
    for _ in range(n):
        print(seg())
    for _ in range(n):
        print(f"0 {seg()}" if R(0, 1) else f"1 {R(-A, A)}")
""",
    "line_add_get_min": """A = random.choice([n, 10**9])
B = random.choice([n, 10**18])
print(n, n)
for _ in range(n):
    print(R(-A, A), R(-B, B))
for _ in range(n):
    print(f"0 {R(-A, A)} {R(-B, B)}" if R(0, 1) else f"1 {R(-A, A)}")
""",
    "lca": """n = max(n, 2)
print(n, n)
if random.random() < 0.25:  # two chains from the root: ancestors far up, where a walk one step at a time is slow
    print(*(max(0, i - 2) for i in range(1, n)))
else:
    print(*(R(max(0, i - random.choice([1, 3, i])), i - 1) for i in range(1, n)))
for _ in range(n):
    u = R(0, n - 2)
    print(u, R(u + 1, n - 1))
""",
    "range_add_range_min": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(-hi, hi) for _ in range(n)))
for _ in range(n):
    l = R(0, n - 1)
    r = R(l + 1, n)
    print(f"0 {l} {r} {R(-hi, hi)}" if R(0, 1) else f"1 {l} {r}")
""",
    "queue_operate_all_composite": """M = 998244353
hi = random.choice([n, M - 1])
print(n)
size = 0
for _ in range(n):
    t = R(0, 2)
    if t == 1 and size == 0:
        t = 0
    if t == 0:
        size += 1
        print(0, R(1, max(1, hi)), R(0, hi))
    elif t == 1:
        size -= 1
        print(1)
    else:
        print(2, R(0, hi))
""",
    "vertex_add_subtree_sum": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
print(*(R(max(0, i - random.choice([1, 3, i])), i - 1) for i in range(1, n)))
for _ in range(n):
    print(f"0 {R(0, n - 1)} {R(0, hi)}" if R(0, 1) else f"1 {R(0, n - 1)}")
""",
    "vertex_add_path_sum": """hi = random.choice([n, 10**9])
print(n, n)
print(*(R(0, hi) for _ in range(n)))
label = list(range(n))
random.shuffle(label)
for i in range(1, n):
    print(label[i], label[R(max(0, i - random.choice([1, 3, i])), i - 1)])
for _ in range(n):
    print(f"0 {R(0, n - 1)} {R(0, hi)}" if R(0, 1) else f"1 {R(0, n - 1)} {R(0, n - 1)}")
""",
    "enumerate_palindromes": """k = random.choice([1, 2, 26])
print("".join(chr(97 + R(0, k - 1)) for _ in range(n)))
""",
    "zalgorithm": """k = random.choice([1, 2, 26])
print("".join(chr(97 + R(0, k - 1)) for _ in range(n)))
""",
    "number_of_subsequences": """hi = random.choice([1, 3, n, 10**9])
print(n)
print(*(R(0, hi) for _ in range(n)))
""",
    "unionfind": """print(n, n)
for _ in range(n):
    print(R(0, 1), R(0, n - 1), R(0, n - 1))
""",
    "counting_c4": """n = max(n, 2)
m = n
print(n, m)
for _ in range(m):
    u, v = random.sample(range(n), 2)
    print(u, v)
""",
}

# brute forces for the problems Library Checker has no right naive solution for (Python, as the test
# generator role asks for by default); number_of_subsequences' naive.cpp is expected to be WA (it
# prints 0 beyond n = 30), so its brute force is a quadratic count by leftmost embeddings
BRUTES = {
    "number_of_subsequences": """n = int(input())
a = input().split()
MOD = 998244353
# f[i]: distinct subsequences whose leftmost embedding starts at i; the next element of one is the
# first occurrence after i of its value, so f[i] = 1 + the sum of f over those first occurrences
f = [0] * n
for i in range(n - 1, -1, -1):
    seen, total = set(), 1
    for j in range(i + 1, n):
        if a[j] not in seen:
            seen.add(a[j])
            total += f[j]
    f[i] = total % MOD
seen, answer = set(), 0
for i in range(n):
    if a[i] not in seen:
        seen.add(a[i])
        answer += f[i]
print(answer % MOD)
""",
    "static_range_sum": """import sys
d = sys.stdin.read().split()
n, q = int(d[0]), int(d[1])
a = list(map(int, d[2:2 + n]))
out = []
for i in range(q):
    l, r = int(d[2 + n + 2 * i]), int(d[3 + n + 2 * i])
    out.append(sum(a[l:r]))
print("\\n".join(map(str, out)))
""",
    "point_add_range_sum": """import sys
d = iter(sys.stdin.read().split())
n, q = int(next(d)), int(next(d))
a = [int(next(d)) for _ in range(n)]
out = []
for _ in range(q):
    t, x, y = int(next(d)), int(next(d)), int(next(d))
    if t == 0:
        a[x] += y
    else:
        out.append(sum(a[x:y]))
print("\\n".join(map(str, out)))
""",
    "zalgorithm": """s = input().strip()
n = len(s)
z = []
for i in range(n):
    k = 0
    while i + k < n and s[k] == s[i + k]:
        k += 1
    z.append(k)
print(*z)
""",
    "unionfind": """import sys
d = iter(sys.stdin.read().split())
n, q = int(next(d)), int(next(d))
comp = list(range(n))
out = []
for _ in range(q):
    t, u, v = int(next(d)), int(next(d)), int(next(d))
    if t == 0:
        a, b = comp[u], comp[v]
        if a != b:
            comp = [a if c == b else c for c in comp]
    else:
        out.append(1 if comp[u] == comp[v] else 0)
print("\\n".join(map(str, out)))
""",
}
