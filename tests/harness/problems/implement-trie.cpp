class Trie {
    struct Node {
        array<int, 26> next{};
        bool end = false;
    };
    vector<Node> nodes{Node{}};

    int walk(const string& word) const {
        int at = 0;
        for (char c : word) {
            at = nodes[at].next[c - 'a'];
            if (!at) return -1;
        }
        return at;
    }

public:
    Trie() {}

    void insert(string word) {
        int at = 0;
        for (char c : word) {
            if (!nodes[at].next[c - 'a']) {
                nodes[at].next[c - 'a'] = nodes.size();
                nodes.push_back(Node{});
            }
            at = nodes[at].next[c - 'a'];
        }
        nodes[at].end = true;
    }

    bool search(string word) {
        int at = walk(word);
        return at >= 0 && nodes[at].end;
    }

    bool startsWith(string prefix) { return walk(prefix) >= 0; }
};
