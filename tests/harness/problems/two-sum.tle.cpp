class Solution {
public:
    vector<int> twoSum(vector<int>& nums, int target) {
        volatile long long spin = 0;
        while (true) ++spin;
        return {};
    }
};
