"""The float checker a statement asks for, from its words on the error it accepts.

English (AtCoder, Codeforces, LiveCodeBench): "... the absolute or relative error from the judge's answer
is at most 10^{-6}", "... its absolute error does not exceed 10^{-9}", "The relative error must be at most
1e-4", "... should not be greater than 10^(-6)". Japanese (AtCoder): "想定解との絶対誤差または相対誤差が
10^{-6} 以下であれば正解として扱われる。" The answer is a spec of `floats.py` (`float:EPS` absolute or
relative, `float-abs:EPS`, `float-rel:EPS`).
"""

from __future__ import annotations

import re

# 10^{-6}, 10^-6, 10^(-6), 10^{- 6}, 10^{−6}, 1e-6, 1E-06, 0.000001
_NUMBER = (
    r"(?:10\s*\^\s*[{(]?\s*[-\u2212]\s*(?P<pow>\d+)\s*[})]?|1\s*[eE]\s*[-\u2212]\s*(?P<e>\d+)|0\.(?P<zeros>0*)1(?!\d))"
)
_EN = re.compile(
    r"(?P<what>(?:absolute|relative)(?:\s+(?:or|and)\s+(?:absolute|relative))?)\s+errors?\b[^.]{0,160}?" + _NUMBER,
    re.IGNORECASE | re.DOTALL,
)
_JA = re.compile(
    r"(?P<what>(?:絶対誤差|相対誤差)(?:\s*(?:または|もしくは|か|と|および)\s*(?:絶対誤差|相対誤差))?)[^。]{0,80}?"
    + _NUMBER,
    re.DOTALL,
)
_MODES = {(True, True): "float", (True, False): "float-abs", (False, True): "float-rel"}


def statement_tolerance(text: str, *, either: bool = False) -> str | None:
    """`float:1e-K`, `float-abs:1e-K` or `float-rel:1e-K` when the text allows an error in the answer,
    else None. The whole match decides the mode ("the absolute error or the relative error is at most
    ..." names both); with `either`, any stated error is taken as absolute or relative (`float:`), as a
    site whose standard checkers accept both does (Codeforces' rcmp4/6/9)."""
    plain = text.replace("$", "")
    for pattern, absolute, relative in ((_EN, "absolute", "relative"), (_JA, "絶対", "相対")):
        m = pattern.search(plain)
        if m:
            what = m[0].lower()
            exponent = int(m["pow"] or m["e"] or len(m["zeros"] or "") + 1)
            mode = "float" if either else _MODES[(absolute in what, relative in what)]
            return f"{mode}:1e-{exponent}"
    return None
