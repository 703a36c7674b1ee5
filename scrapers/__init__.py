"""Scrapers: fetch and parse the sites' problems into `judge.Problem`, and list their contests.

Each site is one object implementing `scrapers.site.Site` (`codeforces_site.SITE`, `leetcode_site.SITE`),
registered in `cpbot.core.registry.SITE_SPECS` and looked up through `scrapers.sites` (`get_site`,
`site_for_url`, `site_for_content`, `fetch_url`, `parse_content`). Parsing is pure
(`codeforces.parse_problems`, `leetcode.parse_question`) and kept apart from fetching, which goes
through the one HTTP layer in `scrapers.http`; every client comes from the one factory,
`scrapers.endpoints.site_client`. Competitive Companion's JSON is a format of its own
(`scrapers.companion`, `scrapers.companion_server`), not a site.

Adding a site: a `SiteSpec` line in the registry, a `<site>_site.py` here whose `SITE` implements
`Site` (with its parser modules), and a `bot/submit/<site>.py` exposing `make_submitter` if cpbot is to
submit there.
"""
