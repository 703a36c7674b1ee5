// cpbot STD-IO template: a count t, then t test cases of one line each.
// Fill in solve(); main() reads t and calls it once per case.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;

void solve() {
    // READ: the values on this case's line, e.g.
    //   ll n; cin >> n;

    // SOLVE, then PRINT this case's answer followed by '\n'
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int t;
    cin >> t;
    while (t--) solve();
    return 0;
}
