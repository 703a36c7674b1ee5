class Solution:
    def smallestNumber(self, num: int) -> int:
        if num < 0:
            return -int("".join(sorted(str(-num), reverse=True)))
        digits = sorted(str(num))
        first = next((i for i, d in enumerate(digits) if d != "0"), 0)
        digits[0], digits[first] = digits[first], digits[0]
        return int("".join(digits))
