class Solution {
public:
    ListNode* reverseList(ListNode* head) {
        // walks past the end of the list and dereferences null
        ListNode* volatile p = head;
        while (true) p = p->next;
        return p;
    }
};
