#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { int n = rd(); vector<long long> bit(n + 1), a(n); for (auto& x : a) x = rd();
  long long out = 0; for (int i = 0; i < n; i++) { int p = a[i] % n + 1; for (int j = p; j <= n; j += j & -j) bit[j] += a[i];
    for (int j = (a[i] * 7) % n + 1; j > 0; j -= j & -j) out ^= bit[j]; for (int j = (a[i] * 13) % n + 1; j > 0; j -= j & -j) out += bit[j]; }
  printf("%lld\n", out); }
