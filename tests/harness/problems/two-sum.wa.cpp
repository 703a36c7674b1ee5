class Solution {
public:
    vector<int> twoSum(vector<int>& nums, int target) {
        // off by one: reports 1-based positions
        for (int i = 0; i < (int)nums.size(); ++i)
            for (int j = i + 1; j < (int)nums.size(); ++j)
                if (nums[i] + nums[j] == target) return {i + 1, j + 1};
        return {};
    }
};
