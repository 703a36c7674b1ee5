"""A judge slot's server inside a warm Python interpreter: Python programs start without start-up cost.

Run as `PYTHON FLAGS... warm_python.py LIBRARY MODULES N PREFIX... LAUNCHER-ARGS...` (never imported:
it runs in the interpreter the programs use, which cannot see cpbot). It imports MODULES (comma-separated,
those missing are skipped), then runs the launcher's server from LIBRARY (launcher.c built as a shared
library). For a request the judge marks warm, an init forks itself and its child, already inside the
run's namespaces and limits, comes back here to run the program as `__main__`, as the command line
`PREFIX... SCRIPT ARGS...` would have: fresh module globals, `sys.argv`, the environment, new standard
streams, `random` reseeded (os.register_at_fork's hooks run). Any other command line is exec'd as it is.

Preludes (the source lines many programs start with: LiveCodeBench's preamble, the LeetCode driver's
code; a JSON list in the environment variable CPBOT_WARM_PRELUDES) are run once by the server, each into
a `__main__` of its own: a program whose source starts with one gets that `__main__` as it was left, and
the rest of its source only is compiled and run. Every test would otherwise compile the driver's 400
lines, or run the preamble's star-imports, which reference some 600 objects of the server and copy the
pages they lie on.

What a fresh interpreter would do differently: the modules above are already imported (unused: the
child is a fork of a server that never ran a program; numpy, when among them, with one BLAS thread, as
the server's environment asks), and every program of a slot shares the slot's string hash seed.
"""

import atexit
import ctypes
import io
import json
import os
import resource
import sys
import types


def unlimited_stack() -> None:
    """Re-exec once with an unlimited stack, as the launcher gives programs: the memory layout of a
    process is chosen at exec, and a program forked from this one keeps it (deep recursion needs it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    if soft == resource.RLIM_INFINITY or hard != resource.RLIM_INFINITY:
        return
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, hard))
    os.execv(sys.executable, sys.orig_argv)


def serve(library: str, args: list[str]) -> bool:
    """Run the launcher's server; True in a warm program's process, False when the judge went away."""
    lib = ctypes.PyDLL(library)  # the GIL stays held: the forks happen with the interpreter at rest
    global changed_globals
    changed_globals = lib.launcher_changed_globals
    changed_globals.restype = ctypes.py_object
    changed_globals.argtypes = (ctypes.py_object, ctypes.py_object)
    lib.launcher_main.restype = ctypes.c_int
    # where launcher.c leaves a program's request, mapped here once: read in the program's process
    # without another foreign call (each costs it a few dozen more pages of the server)
    capacity = ctypes.c_size_t.in_dll(lib, "launcher_warm_request_capacity").value
    area = (ctypes.c_char * capacity).in_dll(lib, "launcher_warm_request")
    size = ctypes.c_size_t.in_dll(lib, "launcher_warm_request_size")
    argv = [b"launcher", *(a.encode() for a in args)]
    if lib.launcher_main(len(argv), (ctypes.c_char_p * (len(argv) + 1))(*argv, None)) != 1:
        return False  # the judge went away (or the interpreter lacks a function launcher.c uses: -1)
    global request
    request = area[: size.value]
    return True


def unpack(packed: bytes) -> tuple[list[bytes], list[bytes]]:
    """The arguments and the environment of a request packed by launcher.c's warm_keep_request."""
    na, ne, *items = packed.split(b"\0")
    return items[: int(na)], items[int(na) : int(na) + int(ne)]


def set_environment(items: list[bytes]) -> None:
    """os.environ made of `items` alone, as a fresh interpreter reads it (the first of a repeated name wins);
    the C environment, which child processes get, is already those items (launcher.c). Written directly,
    not name by name through the mapping's methods: those run a dozen functions that copy 90 more pages of
    the server per run."""
    data = os.environ._data  # type: ignore[attr-defined]  # os.environb shares it
    data.clear()
    for item in items:
        name, eq, value = item.partition(b"=")
        if eq and name and name not in data:
            data[name] = value


def std_stream(fd: int, old: io.TextIOWrapper) -> io.TextIOWrapper:
    """A standard stream as a fresh interpreter makes one on a file that is not a terminal."""
    raw = io.FileIO(fd, "wb" if fd else "rb", closefd=False)
    buffered = io.BufferedWriter(raw) if fd else io.BufferedReader(raw)
    raw.name = ("<stdin>", "<stdout>", "<stderr>")[fd]  # type: ignore[misc]
    text = io.TextIOWrapper(buffered, encoding=old.encoding, errors=old.errors, newline="\n", line_buffering=fd == 2)
    text.mode = "w" if fd else "r"  # type: ignore[misc]
    return text


def run_program(prefix: list[str]) -> None:
    args, env = unpack(request)
    argv = [os.fsdecode(arg) for arg in args]
    set_environment(env)
    if argv[: len(prefix)] != prefix or len(argv) == len(prefix) or argv[len(prefix)].startswith("-"):
        os.execve(argv[0], argv, dict(os.environ))  # not what this interpreter was started as
    script = argv[len(prefix)]
    sys.argv = argv[len(prefix) :]
    sys.orig_argv = argv
    if not (sys.flags.isolated or sys.flags.safe_path):
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    reseed()
    sys.stdin = sys.__stdin__ = std_stream(0, sys.__stdin__)  # type: ignore[arg-type]
    sys.stdout = sys.__stdout__ = std_stream(1, sys.__stdout__)  # type: ignore[arg-type]
    sys.stderr = sys.__stderr__ = std_stream(2, sys.__stderr__)  # type: ignore[arg-type]

    def hook(kind, value, tb):  # type: ignore[no-untyped-def]
        """Tracebacks start at the program, as a fresh interpreter's do."""
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
        sys.__excepthook__(kind, value.with_traceback(tb), tb)

    sys.excepthook = hook
    main = None
    try:
        with open(script, "rb") as f:
            source = f.read()
        main, source = after_prelude(source)
        code = compile(source, script, "exec")
    except BaseException as e:  # raised in its turn, as a fresh interpreter would
        code, error = None, e
    if main is None:
        main = new_main()
    main.__file__ = script
    main.__loader__ = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", script)
    sys.modules["__main__"] = main
    wait_for_turn()
    try:
        if code is None:
            raise error
        exec(code, main.__dict__)
        status = 0
    except SystemExit as e:
        status = exit_status(e.code)
    except BaseException:  # the program's own: reported as Python reports it
        sys.excepthook(*sys.exc_info())
        status = 1
    os._exit(wind_down(main, status))


def new_main() -> types.ModuleType:
    """A `__main__` with the globals a fresh interpreter's has, in its order (`__file__` and `__loader__`,
    which name the script, are set in the program's process)."""
    main = types.ModuleType("__main__")
    main.__annotations__ = {}
    main.__builtins__ = __builtins__  # type: ignore[attr-defined]
    main.__file__ = ""
    main.__cached__ = None  # type: ignore[attr-defined]
    return main


def compiled_prelude(text: str) -> tuple[str, types.CodeType | None]:
    """A prelude and its code (None when it does not compile, or sets a `__future__` feature, which would
    change how the rest compiles). Compiled before the imports: they reuse the compiler's memory, which
    would otherwise stay with the server, copied by every fork."""
    try:
        code = compile(text, "<prelude>", "exec")
    except Exception:
        return text, None
    return text, None if code.co_flags & FUTURE_FLAGS else code


def run_prelude(text: str, code: types.CodeType | None) -> tuple[bytes, types.ModuleType, int, dict] | None:
    """In the server: a prelude run once into a `__main__` of its own, the recursion limit it sets (put back
    here) and a copy of the globals it left; None when it fails (a program starting with it then runs it
    itself)."""
    if code is None:
        return None
    main, limit = new_main(), sys.getrecursionlimit()
    try:
        exec(code, vars(main))
    except Exception:
        return None
    finally:
        prelude_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit)
    return text.encode(), main, prelude_limit, dict(vars(main))


def after_prelude(source: bytes) -> tuple[types.ModuleType | None, bytes]:
    """For a source that starts with a prelude the server ran: that run's `__main__` (this process's own
    copy, as the prelude left it) and the rest of the source to compile, the prelude's lines left blank so
    that line numbers stay; the recursion limit the prelude set is set again here. A `__future__` import
    must start a file: with one after the prelude, the source is compiled whole (and fails as it would); a
    prelude with one is not run ahead."""
    global prelude_globals
    for text, main, limit, left in PRELUDES:
        if source.startswith(text) and b"__future__" not in source[len(text) :]:
            sys.setrecursionlimit(limit)
            prelude_globals = left
            return main, b"\n" * text.count(b"\n") + source[len(text) :]
    return None, source


def reseed() -> None:
    """Random state a fresh interpreter seeds from the system at import, which a fork would otherwise share
    with every run (`random` reseeds itself at fork): numpy's global generator, when it was imported ahead."""
    numpy_random = sys.modules.get("numpy.random")
    if numpy_random is not None:
        numpy_random.seed()


def wait_for_turn() -> None:
    """Ready ahead of its turn: wait for the launcher's byte (none: the run was given up)."""
    if os.read(GO_FD, 1) != b"g":
        os._exit(1)
    os.close(GO_FD)


def exit_status(code: object) -> int:
    """The exit status of `sys.exit(code)`, as the interpreter gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def wind_down(main: types.ModuleType, status: int) -> int:
    """What an interpreter's exit does that a program can see: wait for its threads, run its atexit
    functions, drop its globals (their `__del__` run, its files are flushed and closed), flush the
    standard streams (a failed stdout flush: status 120). The teardown of the modules imported before the
    program, which costs a fresh interpreter most of its exit, is skipped: the process ends."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # type: ignore[attr-defined]
    import gc

    atexit._run_exitfuncs()
    drop_globals(vars(main))
    gc.collect()  # the program's own objects only: the server's were frozen before it forked
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and not stream.closed:
                stream.flush()
        except Exception as e:  # reported as the interpreter reports it
            sys.__stderr__.write(f"Exception ignored in: {stream!r}\n{type(e).__name__}: {e}\n")
            status = status or 120
    return status


def drop_globals(names: dict) -> None:
    """Drop the program's globals, in their order, their `__del__` run. Of a prelude's `__main__`, only the
    names the program made or changed: the prelude's own are the server's objects, with nothing of the
    program's to finalize, and dropping them would copy the pages of some 600 of them."""
    if prelude_globals is None:
        names.clear()
        return
    for name in changed_globals(names, prelude_globals):
        names.pop(name, None)  # a __del__ run before may have dropped it


def start() -> None:
    library, modules, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    prefix, args = sys.argv[4 : 4 + count], sys.argv[4 + count :]
    unlimited_stack()
    # a process's first compile also builds the compiler's state (1-2 ms): never left to a program
    preludes = [compiled_prelude(text) for text in json.loads(os.environ.get(PRELUDES_ENV, "[]"))]
    compile("", "<warm>", "exec")
    for name in filter(None, modules.split(",")):
        try:
            __import__(name)
        except ImportError:
            pass
    PRELUDES.extend(ran for ran in (run_prelude(*p) for p in preludes) if ran is not None)
    import gc

    gc.collect()  # and empties the free lists, which a program's final collection would otherwise write to
    gc.freeze()  # what is here now is never collected: a program's collections skip it (and never copy it)
    if serve(library, args):
        run_program(prefix)  # never returns: the process ends with the program


GO_FD = 3  # launcher.c's WARM_GO_FD
PRELUDES_ENV = "CPBOT_WARM_PRELUDES"  # pool.py's: the preludes, a JSON list
PRELUDES: list[tuple[bytes, types.ModuleType, int, dict]] = []
prelude_globals: dict | None = None  # in a program's process: the globals its prelude left (run_prelude)
changed_globals = None  # launcher.c's launcher_changed_globals, set up by serve()
FUTURE_FLAGS = 0  # the compiler flags of every __future__ feature
for _feature in __import__("__future__").all_feature_names:
    FUTURE_FLAGS |= getattr(__import__("__future__"), _feature).compiler_flag
request = b""
start()
