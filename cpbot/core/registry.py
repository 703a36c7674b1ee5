"""The registries of cpbot's three open-ended concepts: languages, sites and strategies.

Each is one table here. Everything else derives from it: the pydantic `Literal`s of the models, the
CLI's choices, the judge's language implementations, the site objects of `cpbot.scrapers.sites` and the
strategy modules. Adding a language, a site or a strategy starts with one entry below (and, for a new
kind of language or a new site or strategy, the module the entry names); `docs/design.md` says the rest.

Code outside this module asks these tables (`spec.family`, `site.title`, ...) and never compares a
language or site name to a string literal; `tests/test_registries.py` greps the tree for that.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Literal

from cpbot.core.errors import ConfigError

# --- languages ---------------------------------------------------------------------------------------


class Family(StrEnum):
    """How a language is built and run; one implementation per family in `cpbot.judge.languages`."""

    CPP = "cpp"
    PYTHON = "python"


@dataclass(frozen=True)
class LanguageSpec:
    name: str  # the id used everywhere: CLI, problem files, solutions
    family: Family
    title: str  # the exact dialect, as prompts and tables name it
    extension: str  # of a saved solution
    standard: str = ""  # C++: the -std= value
    runtime: str = ""  # Python: "cpython" or "pypy" (which interpreter runs it)
    ops_per_second: float = 1e8  # rough simple operations per second, for the static pruner


LANGUAGE_SPECS: tuple[LanguageSpec, ...] = (
    LanguageSpec("cpp17", Family.CPP, "C++17 (g++)", ".cpp", standard="c++17", ops_per_second=5e8),
    LanguageSpec("cpp20", Family.CPP, "C++20 (g++)", ".cpp", standard="c++20", ops_per_second=5e8),
    LanguageSpec("python3", Family.PYTHON, "Python 3 (CPython)", ".py", runtime="cpython", ops_per_second=2e7),
    LanguageSpec("pypy3", Family.PYTHON, "Python 3 (PyPy)", ".py", runtime="pypy", ops_per_second=1e8),
)
LANGUAGES: dict[str, LanguageSpec] = {spec.name: spec for spec in LANGUAGE_SPECS}
LANGUAGE_NAMES: tuple[str, ...] = tuple(LANGUAGES)
DEFAULT_LANGUAGE = "cpp17"
# A pydantic/typing Literal built from the table: Literal[("a", "b")] is Literal["a", "b"].
LanguageName = Literal[LANGUAGE_NAMES]  # type: ignore[valid-type]

# The language a source file means by its extension when none is given.
LANGUAGE_BY_EXTENSION: dict[str, str] = {".cpp": "cpp17", ".cc": "cpp17", ".cxx": "cpp17", ".py": "python3"}
# What a user may type for a language (`--lang cpp`), as other tools name them.
LANGUAGE_ALIASES: dict[str, str] = {
    "cpp": "cpp17",
    "c++": "cpp17",
    "python": "python3",
    "py": "python3",
    "pypy": "pypy3",
}
# Extensions of languages cpbot does not judge, with what to do instead.
UNJUDGED_EXTENSIONS: dict[str, str] = {
    ".c": "C is not judged as C; most contest C compiles as C++: pass --lang cpp17 (or rename it .cpp)",
}


def language_spec(name: str) -> LanguageSpec:
    """The registered language `name`; a ConfigError listing the known ones otherwise."""
    spec = LANGUAGES.get(name)
    if spec is None:
        raise ConfigError(f"unknown language {name!r}", hint=f"use one of: {', '.join(LANGUAGE_NAMES)}")
    return spec


def language_for_path(path: str | Path) -> str:
    """The language name a source file's extension means."""
    suffix = Path(path).suffix.lower()
    if suffix in UNJUDGED_EXTENSIONS:
        raise ConfigError(f"cpbot does not judge {Path(path).name} as C", hint=UNJUDGED_EXTENSIONS[suffix])
    if suffix not in LANGUAGE_BY_EXTENSION:
        raise ConfigError(
            f"cannot tell the language of {Path(path).name}", hint=f"pass --lang ({', '.join(LANGUAGE_NAMES)})"
        )
    return LANGUAGE_BY_EXTENSION[suffix]


def languages_of(family: Family) -> tuple[str, ...]:
    """The names of the languages of one family."""
    return tuple(spec.name for spec in LANGUAGE_SPECS if spec.family is family)


# --- sites -------------------------------------------------------------------------------------------


class LiveAiRule(StrEnum):
    """When a site's rules let AI-written code be submitted while a contest runs."""

    GYM_OR_LISTED = "gym_or_listed"  # training contests (gym, mashups) and contests the user lists as allowing AI
    LISTED = "listed"  # contests the user lists as allowing AI, except those the site's rules close (Site.closed_to_ai)
    NEVER = "never"  # no contest of the site, whatever the user lists


@dataclass(frozen=True)
class SiteSpec:
    name: str  # the id used in problem ids, state and config ("codeforces")
    title: str  # for people ("Codeforces")
    aliases: tuple[str, ...]  # what a user may type as well ("cf")
    base_url: str  # the real site; `url_env` overrides it (tests point it at a local server)
    url_env: str
    module: str  # the module whose `SITE` object implements `cpbot.scrapers.site.Site` (and its submit protocol)
    live_ai: LiveAiRule = LiveAiRule.NEVER
    ai_rule: str = ""  # the site's rule on AI in contests, in a sentence, as cpbot reminds the user of it
    login_path: str = "/"  # where a person signs in (`cpbot login --browser` opens it)
    password_login: bool = False  # whether the site's submitter can log in with a handle and password

    @property
    def domain(self) -> str:
        """The registrable domain: cookies and routing match it and its subdomains."""
        return self.base_url.split("://", 1)[1].split("/", 1)[0]


SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        "codeforces", "Codeforces", ("cf",), "https://codeforces.com", "CPBOT_CODEFORCES_URL",
        "cpbot.scrapers.codeforces.site", login_path="/enter", password_login=True,
        live_ai=LiveAiRule.GYM_OR_LISTED,
        ai_rule="Codeforces forbids using AI to write code for a rated round while it runs (rule of 2024-09-14), "
        "for registered and out-of-competition participants alike; gym, mashups and finished contests are free",
    ),
    SiteSpec(
        "leetcode", "LeetCode", ("lc",), "https://leetcode.com", "CPBOT_LEETCODE_URL",
        "cpbot.scrapers.leetcode.site", login_path="/accounts/login/",
        live_ai=LiveAiRule.NEVER,
        ai_rule="LeetCode forbids code-generation tools in its contests (September 2024): the first violation "
        "resets and bans, the second deactivates the account",
    ),
    SiteSpec(
        "atcoder", "AtCoder", ("ac",), "https://atcoder.jp", "CPBOT_ATCODER_URL",
        "cpbot.scrapers.atcoder.site", login_path="/login",
        live_ai=LiveAiRule.LISTED,
        ai_rule="AtCoder forbids generative AI while an ABC or ARC Div. 2 runs (rule of 2024-12-06), for rated and "
        "unrated participants alike, and restricts highly automated use in AHC (2025-06-16)",
    ),
)  # fmt: skip
SITES: dict[str, SiteSpec] = {spec.name: spec for spec in SITE_SPECS}
SITE_NAMES: tuple[str, ...] = tuple(SITES)
SiteName = Literal[SITE_NAMES]  # type: ignore[valid-type]
# Problems that come from no site (a folder of tests, a dataset) carry this site name.
LOCAL_SITE = "local"
# Every spelling a user may type for a site -> its name.
SITE_ALIASES: dict[str, str] = {alias: spec.name for spec in SITE_SPECS for alias in (spec.name, *spec.aliases)}


def site_spec(name: str) -> SiteSpec:
    """The registered site called `name` or one of its aliases (any case)."""
    canonical = SITE_ALIASES.get(name.strip().lower())
    if canonical is None:
        raise ConfigError(f"unknown site {name!r}", hint=f"use one of: {', '.join(SITE_ALIASES)}")
    return SITES[canonical]


def site_name(name: str) -> str:
    """The canonical name of a site given by name or alias (`cf` -> `codeforces`)."""
    return site_spec(name).name


# --- strategies --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StrategySpec:
    name: str
    module: str  # exposes `make(**options) -> Strategy`; imported on first use
    summary: str
    scored: bool = False  # it solves score-based problems (a scorer, no expected output), and only those


STRATEGY_SPECS: tuple[StrategySpec, ...] = (
    StrategySpec("cpbot", "cpbot.agents.strategies.cpbot", "cpbot's default: the best of the papers combined"),
    StrategySpec("direct", "cpbot.agents.strategies.direct", "one program, judged on the samples"),
    StrategySpec("macs", "cpbot.agents.strategies.macs", "MACS-Coder: planning cycles x debug attempts"),
    StrategySpec("mas", "cpbot.agents.strategies.mas", "multi-agent: selector, reasoner, checker"),
    StrategySpec("nala", "cpbot.agents.strategies.nala", "two generations, then debugging the failing cases"),
    StrategySpec("swiftsolve", "cpbot.agents.strategies.swiftsolve", "planner, pruner, profiler, analyst"),
    StrategySpec("blockchain", "cpbot.agents.strategies.blockchain", "programs as chains of tested blocks"),
    StrategySpec(
        "ale", "cpbot.agents.strategies.ale", "score-based problems: variants in parallel, scored on seeds", scored=True
    ),
)
STRATEGIES: dict[str, StrategySpec] = {spec.name: spec for spec in STRATEGY_SPECS}
STRATEGY_NAMES: tuple[str, ...] = tuple(STRATEGIES)  # the default first
DEFAULT_STRATEGY = "cpbot"
DEFAULT_SCORED_STRATEGY = "ale"  # the default for score-based problems (AtCoder Heuristic Contests)
StrategyName = Literal[STRATEGY_NAMES]  # type: ignore[valid-type]


def strategy_spec(name: str) -> StrategySpec:
    """The registered strategy `name`; a ConfigError listing the known ones otherwise."""
    spec = STRATEGIES.get(name)
    if spec is None:
        raise ConfigError(f"unknown strategy {name!r}", hint=f"use one of: {', '.join(STRATEGY_NAMES)}")
    return spec
