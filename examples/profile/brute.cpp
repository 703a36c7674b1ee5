// Inversions by brute force: every pair, O(n^2). Right by construction; the reference for `cpbot stress`.
#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    cin >> n;
    vector<long long> a(n);
    for (auto& x : a) cin >> x;
    long long count = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) count += a[i] > a[j];
    cout << count << "\n";
}
