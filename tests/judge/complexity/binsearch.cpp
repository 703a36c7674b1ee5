#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { long long n = rd(); long long lo = 0, hi = n; // largest x with x*x <= n*7
  while (lo < hi) { long long m = (lo + hi + 1) / 2; if ((__int128)m * m <= (__int128)n * 7) lo = m; else hi = m - 1; }
  printf("%lld\n", lo); }
