// The sum of n numbers, with a planted overflow: a 32-bit accumulator.
#include <bits/stdc++.h>
int main() { int n; std::cin >> n; int s = 0; for (int i = 0; i < n; i++) { int x; std::cin >> x; s += x; }
  std::cout << s << "\n"; }
