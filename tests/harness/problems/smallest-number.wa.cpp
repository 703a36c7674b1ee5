class Solution {
public:
    long long smallestNumber(long long num) {
        // truncates to 32 bits
        int small = (int)num;
        return small;
    }
};
