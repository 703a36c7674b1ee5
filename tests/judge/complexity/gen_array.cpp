// Generator: n, then n random integers in [1, 1e9] (argv: N SEED).
#include <bits/stdc++.h>
int main(int argc, char** argv) {
    long long n = atoll(argv[1]);
    std::mt19937_64 rng(atoll(argv[2]) * 1000003 + n);
    std::string out = std::to_string(n) + "\n";
    out.reserve(n * 11 + 32);
    for (long long i = 0; i < n; i++) {
        out += std::to_string(rng() % 1000000000 + 1);
        out += i + 1 < n ? ' ' : '\n';
    }
    fwrite(out.data(), 1, out.size(), stdout);
}
