class Solution {
public:
    string longestCommonPrefix(vector<string>& strs) {
        string prefix = strs.empty() ? "" : strs[0];
        for (const string& s : strs) {
            size_t k = 0;
            while (k < prefix.size() && k < s.size() && prefix[k] == s[k]) ++k;
            prefix.resize(k);
        }
        return prefix;
    }
};
