#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { long long n = rd(); vector<long long> a(n * 16); for (long long i = 0; i < n; i++) a[i * 16] = rd();
  for (size_t i = 1; i < a.size(); i++) a[i] += a[i - 1] ^ (long long)i; printf("%lld\n", a.back()); }
