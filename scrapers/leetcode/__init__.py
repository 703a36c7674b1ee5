"""LeetCode, all in one place; `site.SITE` is what the registry points at.

- `urls`: problem and contest problem URLs, the hosts
- `parse`, `examples`: GraphQL question answers -> `judge.Problem` (pure), and fetching them
- `contests`: the contest API (upcoming, past, a contest's problems)
- `ranking`: the contest ranking pages and how LeetCode scores a contest
- `submit`: the submit protocol (JSON endpoints with the session cookies, the check endpoint)
- `site`: `SITE`, the `Site` object built on the modules above
"""
