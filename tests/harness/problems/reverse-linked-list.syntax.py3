class Solution:
    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
        return head +
