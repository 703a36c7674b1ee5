class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        print("debugging output must not reach the judged stdout")
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return [seen[target - x], i]
            seen[x] = i
        return []


if __name__ == "__main__":
    print(Solution().twoSum([1, 2], 3))
