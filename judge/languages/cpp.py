"""C++ (g++ -O2) with a precompiled bits/stdc++.h and a compile cache keyed by source, flags and compiler."""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

from cpbot.core.dirs import cache_dir
from cpbot.core.registry import Family, LanguageSpec
from cpbot.judge.languages import headers
from cpbot.judge.languages.base import Build, BuildOptions, FamilyProfile, Program
from cpbot.judge.sandbox import RunLimits, Sandbox

MAX_LOG_BYTES = 1 << 20
WORK_DIR = "/box"  # where a run (the compiler's too) works, in the sandbox (launcher.c's BOX)
COMPILE_LIMITS = RunLimits(cpu_ms=60_000, wall_ms=120_000, address_space_kb=4 << 20, output_bytes=512 << 20)


@functools.cache
def compiler() -> str | None:
    return shutil.which("g++")


@functools.cache
def compiler_version() -> str:
    gxx = compiler()
    if not gxx:
        return ""
    out = subprocess.run([gxx, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else gxx


def _digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


# `--debug`: what a contestant's debug build has (sanitizers stop at the first error, the checked STL, LOCAL)
DEBUG_FLAGS = (
    "-g",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=undefined",
    "-fno-omit-frame-pointer",
    "-D_GLIBCXX_DEBUG",
    "-DLOCAL",
)
# compiled into a sanitized program: contest programs leak by design, and LeakSanitizer would make it RE
SANITIZER_DEFAULTS = (
    "cpbot_sanitizer_defaults.cpp",
    'extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }\n',
)


class Cpp:
    """g++ with one -std; builds are cached and use a precompiled header when it can be built."""

    extensions = (".cpp", ".cc", ".cxx")

    def __init__(self, spec: LanguageSpec) -> None:
        self.name = spec.name
        self.flags = ["-O2", f"-std={spec.standard}", "-pipe"]

    def unavailable_reason(self) -> str | None:
        return None if compiler() else "g++ not found (apt-get install g++)"

    def version(self) -> str:
        return compiler_version()

    def build(self, source: str, sandbox: Sandbox, options: BuildOptions | None = None) -> Build:
        options = options or BuildOptions()
        filename = options.filename or "solution.cpp"
        flags = [*self.flags, *options.flags]
        if _sanitized(flags):
            options = dataclasses.replace(options, extra_sources=(*options.extra_sources, SANITIZER_DEFAULTS))
        # keyed by what the compiler is given, not by the include dirs' paths (a staged dir's path differs
        # every run) nor by every file in them: the headers it read are checked against `deps.json`
        key = _digest(
            source,
            *flags,
            compiler_version(),
            filename,
            str(len(options.include_dirs)),
            *(f"{name}\0{text}" for name, text in options.extra_sources),
        )
        out_dir = cache_dir() / "build" / key
        binary = out_dir / "solution"
        started = time.perf_counter()
        notes: list[str] = []
        deps = headers.still_valid(out_dir / headers.DEPS_FILE, options.include_dirs) if binary.exists() else None
        cached = deps is not None
        if deps is not None:
            log = (out_dir / "log").read_text() if (out_dir / "log").exists() else ""
        else:
            log, deps = self._compile(source, filename, flags, options, out_dir, sandbox, notes)
            if deps is None:
                return Build(None, log, seconds=time.perf_counter() - started, notes=notes)
        program_key = _digest(key, deps)
        staged = sandbox.stage(f"cpp-{program_key}", {"solution": binary})
        sanitized = _sanitized(flags)
        # a sanitizer's stack names the source where it was compiled: the run's work dir, /box
        shown = ((f"{WORK_DIR}/", ""),) if sanitized else ()
        program = Program(self.name, [str(staged / "solution")], program_key, sanitized=sanitized, shown_paths=shown)
        return Build(program, log, cached=cached, seconds=time.perf_counter() - started, notes=notes)

    def first_build_note(self, source: str, options: BuildOptions | None = None) -> str:
        """What building `source` does beyond compiling it, said before it starts: the first build with a
        set of flags makes its precompiled header (once; it takes a while)."""
        flags = [*self.flags, *(options.flags if options else ())]
        if not _uses_stdcpp(source) or not _stdcpp_header() or _pch_path(flags).exists():
            return ""
        return "building the precompiled bits/stdc++.h once for these flags (10-60 s; later builds reuse it)"

    def _compile(
        self,
        source: str,
        filename: str,
        flags: list[str],
        options: BuildOptions,
        out_dir: Path,
        sandbox: Sandbox,
        notes: list[str],
    ) -> tuple[str, str | None]:
        """Compile into `out_dir`; the log and the headers read (as `deps.json` holds them), None when it failed."""
        gxx = compiler()
        assert gxx
        include: list[str] = []
        # only a source that includes it pays for the header's first build (a checker on testlib.h does not)
        pch = precompiled_header(flags) if _uses_stdcpp(source) else None
        if pch:
            staged = sandbox.stage(f"pch-{pch.parent.parent.name}", {"bits/stdc++.h.gch": pch})
            include = ["-Winvalid-pch", "-I", str(staged)]
        elif _uses_stdcpp(source):
            notes.append("precompiled header unavailable; compiling without it")
        for d in options.include_dirs:
            include += ["-I", str(d)]
        extra = {name: text.encode() for name, text in options.extra_sources}
        in_place = _in_place(options)
        files = extra if in_place else {filename: source.encode(), **extra}
        sources = [str(in_place), *extra] if in_place else list(files)
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp = out_dir / f"solution.tmp{os.getpid()}-{threading.get_ident()}"
        log_fd = os.memfd_create("compile-log", os.MFD_CLOEXEC)
        deps_fd = os.memfd_create("compile-deps", os.MFD_CLOEXEC)
        try:
            with sandbox.slot(read_only=options.include_dirs) as slot:
                argv = [gxx, *flags, *include, "-MMD", "-MF", "solution.d", *sources, "-o", "solution"]
                # plain ASCII quotes in messages: easier for people, models and tests to read
                result = slot.run(
                    argv,
                    stdin=None,
                    stdout=log_fd,
                    stderr=log_fd,
                    limits=COMPILE_LIMITS,
                    env={"LC_ALL": "C", "LANG": "C"},
                    files=files,
                    collect={"solution": tmp, "solution.d": deps_fd},
                )
            log = os.pread(log_fd, MAX_LOG_BYTES, 0).decode(errors="replace")
            if in_place:  # messages name the file as the user knows it, not where the compiler found it
                log = log.replace(str(in_place), filename)
            made = os.pread(deps_fd, MAX_LOG_BYTES, 0).decode(errors="replace")
        finally:
            os.close(log_fd)
            os.close(deps_fd)
        if result.killed:
            tmp.unlink(missing_ok=True)
            return f"compilation exceeded the {result.killed} limit\n{log}", None
        if not result.ok or "solution" not in result.collected:
            tmp.unlink(missing_ok=True)
            if result.status == "error":
                return f"the sandbox failed to run the compiler: {result.message}", None
            return log or f"compiler failed ({result.status}, code {result.exit_code})", None
        if pch and "not used because" in log:
            notes.append("precompiled header was stale; removed, it is rebuilt next time")
            pch.unlink(missing_ok=True)
        skip = {*files, *([str(in_place)] if in_place else [])}
        read = [p for p in headers.parse_make_deps(made) if p not in skip]
        if options.extra_sources:  # g++ lists only the last source's headers: take every header on the path
            read += headers.every_header(options.include_dirs)
        if pch:  # the precompiled header stands for system headers, which the compiler's version covers
            read = [p for p in read if not p.startswith(f"{staged}/")]
        deps = headers.record(read, options.include_dirs)
        (out_dir / "log").write_text(log)
        os.chmod(tmp, 0o755)
        os.replace(tmp, out_dir / "solution")
        headers.save(out_dir / headers.DEPS_FILE, deps)
        return log, deps


def _uses_stdcpp(source: str) -> bool:
    return "bits/stdc++.h" in source


def _sanitized(flags: list[str]) -> bool:
    return any(f.startswith("-fsanitize=") and "address" in f for f in flags)


def _pch_path(flags: list[str]) -> Path:
    pch_flags = [f for f in flags if f != "-pipe"]
    return cache_dir() / "pch" / _digest(*pch_flags, compiler_version()) / "bits" / "stdc++.h.gch"


def _in_place(options: BuildOptions) -> Path | None:
    """The source's own path when the sandbox shows it (its folder is inside an include dir)."""
    if options.source_path is None:
        return None
    real = options.source_path.resolve()
    return real if any(real.is_relative_to(Path(d).resolve()) for d in options.include_dirs) else None


@functools.cache
def _stdcpp_header() -> str | None:
    gxx = compiler()
    if not gxx:
        return None
    proc = subprocess.run(
        [gxx, "-x", "c++", "-E", "-H", "-o", os.devnull, "-"],
        input="#include <bits/stdc++.h>\n",
        capture_output=True,
        text=True,
    )
    m = re.search(r"^\. (\S+bits/stdc\+\+\.h)$", proc.stderr, re.M)
    return m.group(1) if m else None


def precompiled_header(flags: list[str]) -> Path | None:
    """The .gch for these flags, built once (under a lock) from the system's bits/stdc++.h."""
    header = _stdcpp_header()
    gxx = compiler()
    if not header or not gxx:
        return None
    pch_flags = [f for f in flags if f != "-pipe"]
    target = _pch_path(flags)
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists():
            return target
        tmp = target.with_name(f"stdc++.h.gch.tmp{os.getpid()}")
        proc = subprocess.run([gxx, *pch_flags, "-x", "c++-header", header, "-o", str(tmp)], capture_output=True)
        if proc.returncode != 0:
            tmp.unlink(missing_ok=True)
            return None
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    return target


# ---- recognising C++ in a model's reply ----------------------------------------------------------


def cpp_is_cut(code: str) -> bool:
    """True when C++ code ends inside a block, comment or string: unbalanced braces when obviously cut."""
    depth = 0
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if code.startswith("//", i):
            end = code.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        if code.startswith("/*", i):
            end = code.find("*/", i + 2)
            if end < 0:
                return True
            i = end + 2
            continue
        raw = re.match(r'R"([^()\\ ]{0,16})\(', code[i:]) if ch == "R" else None
        if raw and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = code.find(close, i + raw.end())
            if end < 0:
                return True
            i = end + len(close)
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and code[j] != ch and code[j] != "\n":
                j += 2 if code[j] == "\\" else 1
            if j >= n:
                return True
            i = j + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        i += 1
    return depth > 0


PROFILE = FamilyProfile(
    family=Family.CPP,
    title="C++",
    fence="cpp",
    fence_tags=("cpp", "c++", "cxx", "cc", "c", "h", "hpp", "c++17", "c++20"),
    comment="//",
    checklist=(
        "fast input and output (ios::sync_with_stdio(false); cin.tie(nullptr); '\\n' rather than endl)",
        "64-bit integers (long long) wherever sums, products or counts can pass about 2e9",
        "global arrays and counters reset before each test case when the input has several",
        "no recursion deeper than about 1e5 calls; iterate instead",
    ),
    snippet_key="cpp",
    snippet_aliases=("c++",),
    builder=Cpp,
    signs=(
        r"^\s*#\s*include\s*[<\"]",
        r"\bint\s+main\s*\(",
        r"\bstd::",
        r"using\s+namespace\s+std\s*;",
        r"\bcin\s*>>|\bcout\s*<<",
        r"\b(?:long long|vector<|scanf\s*\(|printf\s*\()",
    ),
    min_signs=1,
    whole_program=r"\bmain\s*\(|\b(?:class|struct)\s+\w+",
    is_cut=cpp_is_cut,
    skeleton_extension="cpp",
    harness_driver="cpbot.judge.harness.cpp_driver",
    harness_fixed_width=True,
    unfenced_start=r"\s*#\s*include\b",
    unfenced_whole=r"\bmain\s*\(|\bclass\s+\w+",
)
