class Solution {
public:
    double myPow(double x, int n) {
        return std::pow(x, n) * 1.001;  // off by 0.1%, well beyond 1e-5
    }
};
