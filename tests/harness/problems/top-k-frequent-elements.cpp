class Solution {
public:
    vector<int> topKFrequent(vector<int>& nums, int k) {
        unordered_map<int, int> count;
        for (int x : nums) ++count[x];
        vector<pair<int, int>> byCount;
        for (auto& [value, c] : count) byCount.push_back({c, value});
        sort(byCount.rbegin(), byCount.rend());
        vector<int> out;
        for (int i = 0; i < k; ++i) out.push_back(byCount[i].second);
        return out;
    }
};
