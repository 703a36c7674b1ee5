// Linear on every input but one shape: a first value of 1 makes it spin (the profile must look past seed 1)
#include <cstdio>
int main() {
    int n, shape;
    if (scanf("%d %d", &n, &shape) != 2) return 1;
    long long sum = 0;
    for (int i = 0, x; i < n && scanf("%d", &x) == 1; i++) sum += x;
    volatile long long spin = 0;
    while (shape == 1) spin = spin + 1;
    printf("%lld\n", sum);
}
