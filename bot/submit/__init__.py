"""Submitting solutions: the gate that decides, the ledger that remembers, one submitter per site.

`gate()` decides from local evidence whether a solution may be posted; `submitter_for()` returns the
`SiteSubmitter` of a problem's site: the site's own submit protocol (`Site.submit_protocol`, in its
package under `scrapers/`) wrapped with the `SubmissionLedger` (never the same source twice, a minimum
interval between posts, one `reconcile` after a crash for every site); it follows the remote verdict
until it is final.
"""
