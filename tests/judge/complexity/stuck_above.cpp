// Quadratic up to n = 3000, then stuck for good: the profiler must stop at the first size that fails.
#include <cstdio>
int main() { long long n; if (scanf("%lld", &n) != 1) return 1;
  volatile long long c = 0; if (n >= 3000) for (;;) c++;
  for (long long i = 0; i < n; i++) for (long long j = 0; j < n; j++) c += i ^ j;
  printf("%lld\n", (long long)c); }
