"""Contest mode: cpbot's own state (`state`), the scheduler (`scheduler`) and the contest loop (`loop`)."""
