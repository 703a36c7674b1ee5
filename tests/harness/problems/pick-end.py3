class Solution:
    def pickEnd(self, first: bool, values: List[int]) -> int:
        return values[0] if first else values[-1]
