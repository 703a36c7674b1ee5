#!/usr/bin/env python3
# Two integers 0 <= a, b <= 100 on one line, no leading zeros, nothing else: exit 42 accepts, 43 rejects.
import re
import sys

text = sys.stdin.read()
match = re.fullmatch(r"(0|[1-9][0-9]*) (0|[1-9][0-9]*)\n", text)
sys.exit(42 if match and all(int(x) <= 100 for x in match.groups()) else 43)
