#include <bits/stdc++.h>
using namespace std;
static inline long long rd() { int c = getchar_unlocked(); while (c != '-' && (c < '0' || c > '9')) c = getchar_unlocked();
  long long s = 1, x = 0; if (c == '-') { s = -1; c = getchar_unlocked(); }
  while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = getchar_unlocked(); } return s * x; }
int main() { int n = rd(); vector<int> a(n); for (auto& x : a) x = rd() % 4;
  vector<int> dp((size_t)(n + 1) * (n + 1)); // LCS of a and its reverse: O(n^2) time and memory
  for (int i = 1; i <= n; i++) for (int j = 1; j <= n; j++) { size_t k = (size_t)i * (n + 1) + j;
    dp[k] = a[i - 1] == a[n - j] ? dp[k - n - 2] + 1 : max(dp[k - 1], dp[k - n - 1]); }
  printf("%d\n", dp.back()); }
