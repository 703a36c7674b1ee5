"""Python 3 (CPython) and PyPy 3: a syntax check stands in for compilation."""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

from cpbot.core.dirs import python_env_dir
from cpbot.core.errors import ConfigError
from cpbot.core.registry import LANGUAGE_SPECS, Family, LanguageSpec
from cpbot.judge.languages.base import Build, BuildOptions, FamilyProfile, Program, usable_by_sandbox
from cpbot.judge.sandbox import RunLimits, Sandbox
from cpbot.judge.sandbox.pool import ENV_READ_ONLY, WarmPython, set_default_warm_python, visible_in_sandbox

# -I ignores the environment and user site; -S skips site-packages: a 4-5x faster start.
RUN_FLAGS = ["-I", "-S"]
# with --with modules beside the program: -I without -P, so the program's folder is on sys.path
RUN_FLAGS_WITH_MODULES = ["-E", "-s", "-S"]
# the libraries of AtCoder's and LiveCodeBench's Python that `cpbot setup-python` installs
ENVIRONMENT_PACKAGES = ["numpy", "scipy", "networkx", "sortedcontainers", "more-itertools"]


def is_environment(interpreter: str | Path) -> bool:
    """Whether the interpreter is a virtual environment's: its packages need `site` (no -S)."""
    return (Path(interpreter).parent.parent / "pyvenv.cfg").is_file()


def run_flags(interpreter: str | Path, *, with_modules: bool = False) -> list[str]:
    """The flags programs start with: isolated, and without site-packages unless it is an environment."""
    flags = RUN_FLAGS_WITH_MODULES if with_modules else RUN_FLAGS
    return [f for f in flags if f != "-S"] if is_environment(interpreter) else flags


def managed_python() -> Path | None:
    """The interpreter of the managed environment (`cpbot setup-python`), when there is one."""
    path = python_env_dir() / "bin" / "python"
    return path if (python_env_dir() / "pyvenv.cfg").is_file() and path.exists() else None


# how the interpreter given to `use_python` was chosen ("--python", "CPBOT_PYTHON", a config file's
# setting), for `judged_python`
_chosen_by = ""


def use_python(path: str | Path, chosen_by: str = "--python") -> None:
    """Judge CPython programs with this interpreter (`bot.cli.config.python_choice` picks it: --python,
    CPBOT_PYTHON, `[judge] python`): its folder is shown read-only in the sandbox when it is not there
    already. Call before the sandbox starts."""
    global _chosen_by
    real = Path(path).expanduser().absolute()
    if not (real.is_file() and os.access(real, os.X_OK)):
        raise ConfigError(
            f"{path} (chosen by {chosen_by}): no executable interpreter there", hint="give the path of a python3"
        )
    if not visible_in_sandbox(real.parent):
        root = real.parent.parent
        extra = [p for p in os.environ.get(ENV_READ_ONLY, "").split(os.pathsep) if p]
        if str(root) not in extra:
            os.environ[ENV_READ_ONLY] = os.pathsep.join([*extra, str(root)])
    if not usable_by_sandbox(real):
        raise ConfigError(
            f"{path} (chosen by {chosen_by}): the sandbox cannot run it (it is {os.path.realpath(real)}: "
            "outside the dirs programs see, or not readable by everyone)",
            hint="make the environment from /usr/bin/python3 (`cpbot setup-python` does)",
        )
    name = _cpython_spec().name
    os.environ[f"CPBOT_{name.upper()}"] = str(real)
    _chosen_by = chosen_by
    from cpbot.judge.languages import LANGUAGES  # the language object (made at import) finds it again

    LANGUAGES[name].__dict__.pop("interpreter", None)


def judge_variables() -> dict[str, str]:
    """The environment variables that carry this process's interpreter choices (`CPBOT_<LANGUAGE>`, the
    sandbox's extra read-only dirs), for the processes that judge on its behalf (Ray workers)."""
    names = [f"CPBOT_{s.name.upper()}" for s in LANGUAGE_SPECS] + [ENV_READ_ONLY]
    return {n: os.environ[n] for n in names if os.environ.get(n)}


def _cpython_spec() -> LanguageSpec:
    return next(s for s in LANGUAGE_SPECS if s.family is Family.PYTHON and s.runtime == "cpython")


SYNTAX_CHECK = (
    "import sys, traceback\n"
    "path, shown = sys.argv[1], sys.argv[2]\n"
    "try:\n"
    "    compile(open(path, 'rb').read(), shown, 'exec')\n"
    "except (SyntaxError, ValueError) as e:\n"
    "    sys.stderr.write(''.join(traceback.format_exception_only(type(e), e)))\n"
    "    sys.exit(1)\n"
)
# Many files at once (`Python.precheck`): "ok" per file that compiles with no error and no warning at all
# (any warning, even one hidden by default, leaves the file to SYNTAX_CHECK, whose log is then exact).
SYNTAX_CHECK_MANY = (
    "import sys, warnings\n"
    "for line in sys.stdin.read().splitlines():\n"
    "    path, shown = line.split('\\t', 1)\n"
    "    with open(path, 'rb') as f:\n"
    "        source = f.read()\n"
    "    with warnings.catch_warnings(record=True) as caught:\n"
    "        warnings.simplefilter('always')\n"
    "        try:\n"
    "            compile(source, shown, 'exec')\n"
    "            clean = not caught\n"
    "        except Exception:\n"
    "            clean = False\n"
    "    print('ok' if clean else '-', flush=True)\n"
)
PRECHECK_BATCH = 200  # files per check run
# imported once by a warm interpreter (WarmPython): what contest programs and LiveCodeBench's preamble use
WARM_MODULES = [
    "array", "bisect", "collections", "copy", "datetime", "decimal", "fractions", "functools", "heapq", "io",
    "itertools", "json", "math", "operator", "random", "re", "statistics", "string", "typing",
]  # fmt: skip
# imported ahead for the programs that import them, where the interpreter has them (the managed
# environment): numpy takes a fresh interpreter 0.1-0.3 s to import
WARM_HEAVY_MODULES = ["numpy"]
# source lines many programs start with, run ahead by the warm interpreter (WarmPython.preludes): the
# LeetCode driver's (judge.harness.python_driver) and those registered (LiveCodeBench's preamble, by its module)
_warm_preludes: list[str] = []


def add_warm_prelude(text: str) -> None:
    """Have the sandboxes started from now on run `text` (whole lines) ahead for the programs that start
    with it, as if each had run it itself (see warm_python.py)."""
    if text.endswith("\n") and text not in _warm_preludes:
        _warm_preludes.append(text)


CHECK_LIMITS = RunLimits(cpu_ms=20_000, wall_ms=40_000, address_space_kb=2 << 20, output_bytes=1 << 20)


class Python:
    """A Python interpreter found on this machine; CPython for python3, PyPy for pypy3."""

    extensions = (".py",)

    def __init__(self, spec: LanguageSpec) -> None:
        self.name = spec.name
        self._candidates = RUNTIME_CANDIDATES[spec.runtime]()
        self._checked: dict[str, str] = {}

    @functools.cached_property
    def interpreter(self) -> str | None:
        env = os.environ.get(f"CPBOT_{self.name.upper()}")
        managed = managed_python() if self.name == _cpython_spec().name else None
        for cand in ([env] if env else []) + ([str(managed)] if managed else []) + self._candidates:
            path = shutil.which(cand) if cand and not os.path.isabs(cand) else cand
            if path and os.path.exists(path) and usable_by_sandbox(path):
                return path
        return None

    def unavailable_reason(self) -> str | None:
        if self.interpreter:
            return None
        return (
            f"no {self.name} interpreter that the sandbox can run was found (tried {', '.join(self._candidates)}); "
            "one outside /usr needs its dir in CPBOT_SANDBOX_READ_ONLY"
        )

    def version(self) -> str:
        if not self.interpreter:
            return ""
        out = subprocess.run([self.interpreter, "--version"], capture_output=True, text=True)
        return (out.stdout or out.stderr).strip().replace("\n", " ")

    def build(self, source: str, sandbox: Sandbox, options: BuildOptions | None = None) -> Build:
        interp = self.interpreter
        assert interp
        options = options or BuildOptions()
        filename = options.filename or "solution.py"
        # --with files sit beside the program under their own names, importable by them (a grader
        # holding main is judged with the solution it imports given by --with, or the other way round)
        modules = dict(options.extra_sources)
        entry = Path(filename).name if modules else "solution.py"
        if entry in modules:
            raise ConfigError(f"--with {entry} has the name of the program itself", hint="rename one of them")
        started = time.perf_counter()
        key, staged = self._stage(source, filename, modules, sandbox)
        cached = key in self._checked
        if not cached:
            logs = []
            for name, shown in [(entry, filename), *((n, n) for n in modules)]:
                ok, log = self._syntax_check(str(staged / name), shown, sandbox)
                if not ok:
                    return Build(None, log, seconds=time.perf_counter() - started)
                logs.append(log)
            self._checked[key] = "".join(logs)
        flags = run_flags(interp, with_modules=bool(modules))
        names = ((str(staged / entry), filename), *((str(staged / n), n) for n in modules))
        program = Program(self.name, [interp, *flags, str(staged / entry)], key, shown_paths=names)
        return Build(program, self._checked[key], cached=cached, seconds=time.perf_counter() - started)

    def _stage(self, source: str, filename: str, modules: dict[str, str], sandbox: Sandbox) -> tuple[str, Path]:
        """The program's key (interpreter, name and sources) and its staged dir."""
        assert self.interpreter
        entry = Path(filename).name if modules else "solution.py"
        identity = "\0".join([self.interpreter, filename, source, *(f"{n}\0{t}" for n, t in sorted(modules.items()))])
        key = hashlib.sha256(identity.encode()).hexdigest()[:24]
        files = {entry: source.encode(), **{name: text.encode() for name, text in modules.items()}}
        return key, sandbox.stage(f"py-{key}", files)

    def precheck(self, sources: Sequence[str], sandbox: Sandbox) -> None:
        """Syntax-check many plain programs (a `solution.py` without --with files) in a few sandbox runs
        instead of one run each: those that compile without an error or a warning are remembered as
        checked; the others get their own check when built, which gives their exact log."""
        assert self.interpreter
        todo: dict[str, Path] = {}
        for source in sources:
            key, staged = self._stage(source, "solution.py", {}, sandbox)
            if key not in self._checked:
                todo[key] = staged / "solution.py"
        keys = list(todo)
        for start in range(0, len(keys), PRECHECK_BATCH):
            batch = keys[start : start + PRECHECK_BATCH]
            manifest = "".join(f"{todo[key]}\tsolution.py\n" for key in batch).encode()
            for key, clean in zip(batch, self._check_many(manifest, sandbox), strict=False):
                if clean:
                    self._checked[key] = ""

    def _check_many(self, manifest: bytes, sandbox: Sandbox) -> list[bool]:
        """Whether each file of the manifest (`path<TAB>shown name` lines) compiled cleanly, for as many
        as the check got through (a check that failed part-way leaves the rest unchecked)."""
        assert self.interpreter
        out_fd = os.memfd_create("check-many", os.MFD_CLOEXEC)
        try:
            with sandbox.slot() as slot:
                check = sandbox.stage("py-syntax-check-many", {"check.py": SYNTAX_CHECK_MANY.encode()}) / "check.py"
                argv = [self.interpreter, *run_flags(self.interpreter), str(check)]
                slot.run(argv, stdin=manifest, stdout=out_fd, stderr=Path(os.devnull), limits=CHECK_LIMITS)
            lines = os.pread(out_fd, 1 << 20, 0).decode(errors="replace").splitlines()
        finally:
            os.close(out_fd)
        return [line == "ok" for line in lines]

    def _syntax_check(self, script: str, shown_name: str, sandbox: Sandbox) -> tuple[bool, str]:
        """Whether the file compiles, and the log (the error, under the name the user knows)."""
        assert self.interpreter
        log_fd = os.memfd_create("check-log", os.MFD_CLOEXEC)
        try:
            with sandbox.slot() as slot:
                # a staged script rather than -c: a warm slot then runs it without an interpreter start
                check = sandbox.stage("py-syntax-check", {"check.py": SYNTAX_CHECK.encode()}) / "check.py"
                result = slot.run(
                    [self.interpreter, *run_flags(self.interpreter), str(check), script, shown_name],
                    stdin=None,
                    stdout=log_fd,
                    stderr=log_fd,
                    limits=CHECK_LIMITS,
                )
            log = os.pread(log_fd, 1 << 20, 0).decode(errors="replace")
        finally:
            os.close(log_fd)
        if not result.ok:
            return False, log or f"syntax check failed ({result.status})"
        return True, log


def default_warm_python() -> WarmPython | None:
    """The warm interpreter for the sandbox: the CPython language's, started as the judge starts programs
    (None without one; PyPy programs always start afresh)."""
    from cpbot.judge.harness.python_driver import python_preludes  # the harness builds on the languages

    interp = Python(_cpython_spec()).interpreter
    if not interp:
        return None
    return WarmPython(
        prefix=[interp, *run_flags(interp)],
        modules=WARM_MODULES,
        heavy_modules=WARM_HEAVY_MODULES,
        preludes=[*python_preludes(), *_warm_preludes],
    )


def judged_python() -> str:
    """Which interpreter CPython programs are judged with, and where the choice came from (`cpbot doctor`)."""
    interp = Python(_cpython_spec()).interpreter
    if interp is None:
        return "none found"
    variable = f"CPBOT_{_cpython_spec().name.upper()}"
    if os.environ.get(variable) and Path(interp) == Path(os.environ[variable]):
        source = f"chosen by {_chosen_by or variable}"
    elif managed_python() is not None and Path(interp) == managed_python():
        source = "the managed environment of cpbot setup-python"
    else:
        source = "the system's; cpbot setup-python makes one with numpy, scipy, ..."
    return f"{' '.join([interp, *run_flags(interp)])} ({source}), forked warm per test"


def cpython_candidates() -> list[str]:
    return ["/usr/bin/python3", "python3", sys.executable]


# Where to look for each runtime's interpreter (`CPBOT_<LANGUAGE>` overrides, e.g. CPBOT_PYPY3).
RUNTIME_CANDIDATES = {"cpython": cpython_candidates, "pypy": lambda: ["pypy3"]}

set_default_warm_python(default_warm_python)


# ---- recognising Python in a model's reply -------------------------------------------------------

_compile_lock = threading.Lock()


def python_error(code: str) -> SyntaxError | None:
    """The syntax error in `code`, or None if it compiles."""
    # compiling may warn (e.g. about escapes in strings); that is the program's business, not ours,
    # and the warnings filter is global, hence the lock
    with _compile_lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(code, "<reply>", "exec", dont_inherit=True)
        except SyntaxError as e:
            return e
        except ValueError as e:  # source with NUL bytes
            return SyntaxError(str(e))
    return None


def python_is_cut(code: str) -> bool:
    """True when Python code fails to compile because it stops early (open bracket, block or string)."""
    error = python_error(code)
    if error is None:
        return False
    message = (error.msg or "").lower()
    if any(s in message for s in ("never closed", "unterminated triple-quoted", "unexpected eof")):
        return True
    last_line = len(code.rstrip("\n").splitlines())
    return error.lineno is not None and error.lineno >= last_line and "expected an indented block" in message


PROFILE = FamilyProfile(
    family=Family.PYTHON,
    title="Python",
    fence="python",
    fence_tags=("python", "py", "py3", "pypy"),
    comment="#",
    checklist=(
        "read the whole input at once (sys.stdin.buffer.read().split()) and print once at the end",
        "no deep recursion: the default limit is 1000 calls; iterate, or raise sys.setrecursionlimit",
        "state reset before each test case when the input has several",
        "loops of more than about 1e7 steps are too slow: find a better complexity or use built-ins",
    ),
    snippet_key="python3",
    snippet_aliases=("python",),
    builder=Python,
    signs=(
        r"^\s*def\s+\w+\s*\(.*\)\s*(?:->\s*[^:]+)?:\s*$",
        r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s)",
        r"\binput\s*\(\s*\)|\bsys\.stdin\b",
        r"\bprint\s*\(",
        r"^\s*(?:for|while|if|elif)\b[^\n;{]*:\s*$",
        r"\bself\b|\bNone\b|\bTrue\b|\bFalse\b",
    ),
    min_signs=2,  # one weak sign (a lone `print(`) is not enough to call a block Python
    whole_program=r"\binput\s*\(|\bsys\.stdin\b|^\s*(?:def|class)\s",
    is_cut=python_is_cut,
    skeleton_extension="py",
    harness_driver="cpbot.judge.harness.python_driver",
    syntax_error=python_error,
)
