// Generator, run as `gen N SEED`: one input of size N. Values repeat often, so ties get tested.
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char** argv) {
    int n = atoi(argv[1]);
    mt19937 rng(atoi(argv[2]));
    uniform_int_distribution<int> value(1, max(2, n / 2));
    printf("%d\n", n);
    for (int i = 0; i < n; i++) printf("%d%c", value(rng), i + 1 < n ? ' ' : '\n');
}
