// Inversions: the number of pairs i < j with a[i] > a[j], by merge sort in O(n log n).
#include <bits/stdc++.h>
using namespace std;

long long sort_count(vector<long long>& a, vector<long long>& tmp, int lo, int hi) {
    if (hi - lo < 2) return 0;
    int mid = (lo + hi) / 2;
    long long count = sort_count(a, tmp, lo, mid) + sort_count(a, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid || j < hi) {
        if (j == hi || (i < mid && a[i] <= a[j])) {
            tmp[k++] = a[i++];
        } else {
            count += mid - i;  // a[j] is smaller than everything left in the left half
            tmp[k++] = a[j++];
        }
    }
    copy(tmp.begin() + lo, tmp.begin() + hi, a.begin() + lo);
    return count;
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n;
    cin >> n;
    vector<long long> a(n), tmp(n);
    for (auto& x : a) cin >> x;
    cout << sort_count(a, tmp, 0, n) << "\n";
}
