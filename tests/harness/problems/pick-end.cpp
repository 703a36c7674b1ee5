class Solution {
public:
    long long pickEnd(bool first, vector<long long>& values) {
        return first ? values.front() : values.back();
    }
};
