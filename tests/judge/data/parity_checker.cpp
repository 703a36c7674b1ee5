// A testlib-protocol checker: accepts any output with the answer's parity (argv: input output answer).
// Exit codes as testlib: 0 ok, 1 wrong answer, 2 presentation error, 3 checker failure, 7 points.
#include <bits/stdc++.h>
using namespace std;
int main(int argc, char** argv) {
    if (argc < 4) return 3;
    ifstream out(argv[2]), ans(argv[3]);
    long long want;
    if (!(ans >> want)) { fprintf(stderr, "no answer in the jury file\n"); return 3; }
    string token;
    if (!(out >> token)) { fprintf(stderr, "empty output\n"); return 2; }
    char* end = nullptr;
    long long got = strtoll(token.c_str(), &end, 10);
    if (*end) { fprintf(stderr, "not an integer: %s\n", token.c_str()); return 2; }
    if (want < 0) { fprintf(stderr, "points 0.5\n"); return 7; }
    if ((got - want) % 2 != 0) { fprintf(stderr, "parity differs: %lld vs %lld\n", got, want); return 1; }
    fprintf(stderr, "ok parity matches\n");
    return 0;
}
