class Solution:
    def minimumTotal(self, triangle: List[List[int]]) -> int:
        best = triangle[-1][:]
        for row in reversed(triangle[:-1]):
            best = [v + min(best[k], best[k + 1]) for k, v in enumerate(row)]
        return best[0]
