// cpbot STD-IO template: one test per input.
// Fill in READ, SOLVE and PRINT; keep the fast I/O lines.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);

    // READ: the whole input, e.g.
    //   int n; cin >> n;
    //   vector<ll> a(n); for (auto& x : a) cin >> x;

    // SOLVE

    // PRINT: use '\n', not endl (endl flushes every line)
    return 0;
}
