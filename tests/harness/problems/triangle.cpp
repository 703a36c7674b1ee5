class Solution {
public:
    int minimumTotal(vector<vector<int>>& triangle) {
        vector<int> best = triangle.back();
        for (int r = (int)triangle.size() - 2; r >= 0; --r)
            for (int k = 0; k <= r; ++k) best[k] = triangle[r][k] + min(best[k], best[k + 1]);
        return best[0];
    }
};
