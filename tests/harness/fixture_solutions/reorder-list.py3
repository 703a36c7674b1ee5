class Solution:
    def reorderList(self, head: Optional[ListNode]) -> None:
        nodes = []
        while head:
            nodes.append(head)
            head = head.next
        order = []
        i, j = 0, len(nodes) - 1
        while i <= j:
            order.append(nodes[i])
            if i != j:
                order.append(nodes[j])
            i, j = i + 1, j - 1
        for a, b in zip(order, order[1:]):
            a.next = b
        if order:
            order[-1].next = None
