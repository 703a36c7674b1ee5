#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { long long n = rd(); set<long long> s; for (long long i = 0; i < n; i++) s.insert(rd() * 31 + i);
  long long h = 0; for (long long x : s) h = h * 1000003 + x; printf("%lld\n", h); }
