class Solution {
public:
    vector<vector<int>> generate(int numRows) {
        vector<vector<int>> rows;
        for (int r = 0; r < numRows; ++r) {
            vector<int> row(r + 1, 1);
            for (int k = 1; k < r; ++k) row[k] = rows[r - 1][k - 1] + rows[r - 1][k];
            rows.push_back(row);
        }
        return rows;
    }
};
