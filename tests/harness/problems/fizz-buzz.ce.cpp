class Solution {
public:
    vector<string> fizzBuzz(int n) {
        vector<int> out(n);
        return out;  // wrong return type
    }
};
