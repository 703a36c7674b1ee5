// cpbot STD-IO template: an interactive problem. Every line printed must be flushed before reading
// the reply; never read past what the judge has sent.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;

ll ask(ll x) {
    // the query format comes from the statement, e.g. "? x"
    cout << "? " << x << endl;  // endl flushes: required here
    ll reply;
    cin >> reply;
    if (reply == -1) exit(0);  // the judge says the interaction went wrong: stop at once
    return reply;
}

void answer(ll x) {
    cout << "! " << x << endl;
}

void solve() {
    // READ this case's opening values, then ask() and answer()
}

int main() {
    int t = 1;
    // if the statement has test cases: cin >> t;
    while (t--) solve();
    return 0;
}
