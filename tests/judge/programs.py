"""Small real programs for judge tests, one per behaviour (C++ and Python)."""

CPP_SUM = """#include <bits/stdc++.h>
using namespace std;
int main() { long long a, b; cin >> a >> b; cout << a + b << "\\n"; }
"""
PY_SUM = "a, b = map(int, input().split())\nprint(a + b)\n"

CPP_WRONG = """#include <bits/stdc++.h>
int main() { long long a, b; std::cin >> a >> b; std::cout << a + b + (a == 5) << "\\n"; }
"""
PY_WRONG = "a, b = map(int, input().split())\nprint(a + b + (a == 5))\n"

# right tokens, wrong layout: prints the sum and a trailing token on separate lines vs one line
PY_SPLIT_LINES = "a, b = map(int, input().split())\nprint(a)\nprint(b)\n"
CPP_SPLIT_LINES = """#include <cstdio>
int main() { int a, b; scanf("%d %d", &a, &b); printf("%d\\n%d\\n", a, b); }
"""

CPP_SPIN = "int main() { volatile unsigned long x = 0; for (;;) x++; }\n"
PY_SPIN = "while True:\n    pass\n"
CPP_SLEEP = "#include <unistd.h>\nint main() { for (;;) pause(); }\n"
PY_SLEEP = "import time\ntime.sleep(1000)\n"

# touches every page, so the peak RSS really is this large
CPP_ALLOC_MB = """#include <bits/stdc++.h>
int main() {{ std::vector<char> v({mb}u << 20, 1); long s = 0; for (size_t i = 0; i < v.size(); i += 4096) s += v[i];
  printf("%ld\\n", s); }}
"""
PY_ALLOC_MB = "x = bytearray({mb} << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint(sum(x[::4096]))\n"
CPP_HUGE_VECTOR = """#include <bits/stdc++.h>
int main() { std::vector<long long> v(2000000000LL / 8 * 4); v[7] = 1; printf("%lld\\n", v[7]); }
"""
PY_HUGE_LIST = "x = [0] * (500 * 1024 * 1024)\nprint(len(x))\n"

CPP_FLOOD = '#include <cstdio>\nint main() { for (;;) fputs("0123456789abcdef\\n", stdout); }\n'
PY_FLOOD = "import sys\nwhile True:\n    sys.stdout.write('0123456789abcdef' * 64)\n"

CPP_SEGFAULT = "int main() { volatile int *p = 0; *p = 1; return 0; }\n"
PY_RAISE = "raise ValueError('boom')\n"
CPP_EXIT3 = "int main() { return 3; }\n"
PY_EXIT3 = "import sys\nsys.exit(3)\n"

CPP_SYNTAX_ERROR = "int main() { return 0 }\n"
PY_SYNTAX_ERROR = "print('unclosed'\n"

CPP_DEEP_RECURSION = """#include <bits/stdc++.h>
int depth(int n) { volatile char pad[64]; pad[0] = n; return n == 0 ? 0 : 1 + depth(n - 1) + pad[0] * 0; }
int main() { printf("%d\\n", depth(1000000)); }
"""

PY_FLOAT = "print({value})\n"

# spins until its own CPU time reaches the given fraction of the time limit
PY_BURN_CPU = """import time
limit = {ms} / 1000
while time.process_time() < limit:
    pass
print(0)
"""
