// cpbot STD-IO template: a count t, then t test cases of several lines each.
// Fill in solve(); state must not leak from one case to the next (declare it inside solve()).
#include <bits/stdc++.h>
using namespace std;
using ll = long long;

void solve() {
    // READ: this case's lines, e.g.
    //   int n; cin >> n;
    //   vector<ll> a(n); for (auto& x : a) cin >> x;

    // SOLVE, then PRINT this case's answer (use '\n', not endl)
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int t;
    cin >> t;
    while (t--) solve();
    return 0;
}
