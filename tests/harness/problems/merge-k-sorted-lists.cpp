class Solution {
public:
    ListNode* mergeKLists(vector<ListNode*>& lists) {
        auto later = [](ListNode* a, ListNode* b) { return a->val > b->val; };
        priority_queue<ListNode*, vector<ListNode*>, decltype(later)> heap(later);
        for (ListNode* l : lists) if (l) heap.push(l);
        ListNode dummy(0);
        ListNode* tail = &dummy;
        while (!heap.empty()) {
            ListNode* n = heap.top();
            heap.pop();
            tail->next = n;
            tail = n;
            if (n->next) heap.push(n->next);
        }
        tail->next = nullptr;
        return dummy.next;
    }
};
