// cpbot STD-IO template: a header line with the dimensions (and maybe more values), then one row per line.
// Keep the reader that matches the rows: strings of characters or numbers separated by spaces.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n, m;  // rows, columns: check the order the statement gives them in
    cin >> n >> m;
    // READ any other values of the header line here.

    // Rows of characters ("#..#"):
    vector<string> grid(n);
    for (auto& row : grid) cin >> row;
    // Rows of numbers instead:
    //   vector<vector<ll>> a(n, vector<ll>(m));
    //   for (auto& row : a) for (auto& x : row) cin >> x;

    // SOLVE

    // PRINT: use '\n', not endl
    return 0;
}
