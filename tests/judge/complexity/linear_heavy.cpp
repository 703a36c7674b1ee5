#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { long long n = rd(); unsigned long long h = 1469598103934665603ULL;
  for (long long i = 0; i < n; i++) { unsigned long long x = rd(); for (int k = 0; k < 200; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; } h = (h ^ x) * 1099511628211ULL; }
  printf("%llu\n", h); }
