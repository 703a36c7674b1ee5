#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { int n = rd(); vector<long long> a(n); for (auto& x : a) x = rd();
  long long c = 0; const long long M = 998244353; for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) c = (c + a[i] % M * (a[j] % M)) % M;
  printf("%lld\n", c); }
