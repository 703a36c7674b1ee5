class Solution {
public:
    void reorderList(ListNode* head) {
        vector<ListNode*> nodes;
        for (ListNode* p = head; p; p = p->next) nodes.push_back(p);
        int i = 0, j = (int)nodes.size() - 1;
        while (i < j) {
            nodes[i]->next = nodes[j];
            ++i;
            if (i == j) break;
            nodes[j]->next = nodes[i];
            --j;
        }
        if (!nodes.empty()) nodes[i]->next = nullptr;
    }
};
