class Solution {
public:
    ListNode* addTwoNumbers(ListNode* a, ListNode* b) {
        ListNode head(0);
        ListNode* tail = &head;
        int carry = 0;
        while (a || b || carry) {
            int sum = carry + (a ? a->val : 0) + (b ? b->val : 0);
            tail = tail->next = new ListNode(sum % 10);
            carry = sum / 10;
            if (a) a = a->next;
            if (b) b = b->next;
        }
        return head.next;
    }
};
