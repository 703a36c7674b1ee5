"""Submitting solutions: the gate that decides, the ledger that remembers, one submitter per site.

`gate()` decides from local evidence whether a solution may be posted; `submitter_for()` returns the
site's `Submitter` (made by `make_submitter` of the module the site's registry entry names), which
posts through the `SubmissionLedger` (never the same source twice, a minimum interval between posts)
and follows the remote verdict until it is final.
"""
