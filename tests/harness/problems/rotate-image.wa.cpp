class Solution {
public:
    void rotate(vector<vector<int>>& matrix) {
        // works on a copy: the matrix itself is left unchanged
        vector<vector<int>> copy = matrix;
        for (auto& row : copy) reverse(row.begin(), row.end());
    }
};
