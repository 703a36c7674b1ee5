#include <bits/stdc++.h>
int main() { int n; std::cin >> n; long long s = 0; for (int i = 0; i < n; i++) { long long x; std::cin >> x; s += x; }
  std::cout << s << "\n"; }
