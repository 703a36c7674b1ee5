"""Scrapers: fetch and parse the sites' problems into `judge.Problem`, and list their contests.

Each site is one package (`scrapers/codeforces/`, `scrapers/leetcode/`) whose `site.SITE` implements
`scrapers.site.Site`, registered in `cpbot.core.registry.SITE_SPECS` and looked up through
`scrapers.sites` (`get_site`, `site_for_url`, `site_for_content`, `fetch_url`, `parse_content`). Parsing
is pure (`codeforces.parse.parse_problems`, `leetcode.parse.parse_question`) and kept apart from fetching, which goes
through the one HTTP layer in `scrapers.http`; every client comes from the one factory,
`scrapers.endpoints.site_client`. Competitive Companion's JSON is a format of its own
(`scrapers.companion`, `scrapers.companion_server`), not a site.

Adding a site: a `SiteSpec` line in the registry and a package here (see `docs/design.md`, "Adding a
site"); its `submit.py` speaks the site's submit protocol (`scrapers.submission.SubmitProtocol`) if cpbot
is to submit there.
"""
