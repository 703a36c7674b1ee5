// Linear, with recursion n deep: the stack must grow far past valgrind's default 16 MB.
#include <bits/stdc++.h>
long long depth(long long n, long long acc) { if (n == 0) return acc; volatile long long pad[4] = {n, acc, n, acc}; return depth(n - 1, acc + pad[1] % 7 + 1); }
int main() { long long n; if (scanf("%lld", &n) != 1) return 1; printf("%lld\n", depth(n, 0)); }
