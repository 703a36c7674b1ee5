#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { int n = rd(); vector<long long> a(n); for (auto& x : a) x = rd();
  long long best = 0, target = accumulate(a.begin(), a.end(), 0LL) / 3;
  for (long long m = 0; m < (1LL << n); m++) { long long s = 0; long long mm = m; while (mm) { int b = __builtin_ctzll(mm); s += a[b]; mm &= mm - 1; }
    if (s <= target && s > best) best = s; }
  printf("%lld\n", best); }
