class Solution {
public:
    long long smallestNumber(long long num) {
        if (num == 0) return 0;
        bool negative = num < 0;
        string digits = to_string(negative ? -num : num);
        if (negative) {
            sort(digits.rbegin(), digits.rend());
            return -stoll(digits);
        }
        sort(digits.begin(), digits.end());
        size_t first = digits.find_first_not_of('0');
        swap(digits[0], digits[first]);
        return stoll(digits);
    }
};
