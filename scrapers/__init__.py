"""Scrapers: fetch and parse Codeforces and LeetCode into `judge.Problem`, and list contests.

Parsing is pure (`codeforces.parse_problems`, `leetcode.parse_question`) and kept apart from fetching,
which goes through the one HTTP layer in `scrapers.http`. Entry points for callers: `scrapers.sites`
(a URL or saved content -> problems), `scrapers.contests` (listings), `scrapers.companion` and
`scrapers.companion_server` (Competitive Companion).
"""
