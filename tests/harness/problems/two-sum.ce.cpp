class Solution {
public:
    vector<int> twoSum(vector<int>& nums, int target) {
        return {0, 1}   // missing semicolon
    }
};
