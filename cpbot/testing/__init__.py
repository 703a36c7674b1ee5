"""Stand-ins for the outside world that cpbot's tests, examples and performance scripts share.

`scripted_server`: an OpenAI-compatible chat server on 127.0.0.1 that answers from a script (Python
steps, or a JSON file of rules when run as `python -m cpbot.testing.scripted_server`).
`population_server`: a model that draws each program it writes from a per-problem population of right
and wrong-but-sample-passing programs (the verification lab's folders), a stand-in for sampling.
Standard library only; nothing in cpbot's layers imports this package.
"""
