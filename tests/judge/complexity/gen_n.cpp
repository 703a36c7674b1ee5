// Generator: just the number N (argv: N SEED), for programs whose input is one number.
#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv) { printf("%lld\n", atoll(argv[1])); }
