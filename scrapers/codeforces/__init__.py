"""Codeforces, all in one place; `site.SITE` is what the registry points at.

- `urls`: every problem and contest URL form, canonical URLs, the hosts (mirrors included)
- `parse`, `samples`: problem pages -> `judge.Problem` (pure), and fetching them
- `api`: the official API (contests, problem lists, standings, submissions)
- `ranking`: the official standings and how Codeforces scores a round
- `submit`: the submit protocol (the served form, the verdict from the API)
- `site`: `SITE`, the `Site` object built on the modules above
"""
