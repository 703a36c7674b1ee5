// The maximum of n numbers, with a planted off-by-one: the last number is never looked at.
#include <bits/stdc++.h>
int main() { int n; std::cin >> n; std::vector<long long> a(n); for (auto& x : a) std::cin >> x;
  long long best = a[0]; for (int i = 1; i < n - 1; i++) best = std::max(best, a[i]); std::cout << best << "\n"; }
