"""A judge slot's server inside a warm Python interpreter: Python programs start without start-up cost.

Run as `PYTHON FLAGS... warm_python.py LIBRARY MODULES N PREFIX... LAUNCHER-ARGS...` (never imported:
it runs in the interpreter the programs use, which cannot see cpbot). It imports MODULES (comma-separated,
those missing are skipped), then runs the launcher's server from LIBRARY (launcher.c built as a shared
library). For a request the judge marks warm, an init forks itself and its child, already inside the
run's namespaces and limits, comes back here to run the program as `__main__`, as the command line
`PREFIX... SCRIPT ARGS...` would have: fresh module globals, `sys.argv`, the environment, new standard
streams, `random` reseeded (os.register_at_fork's hooks run). Any other command line is exec'd as it is.

What a fresh interpreter would do differently: the modules above are already imported (unused: the
child is a fork of a server that never ran a program; numpy, when among them, with one BLAS thread, as
the server's environment asks), and every program of a slot shares the slot's string hash seed.
"""

import atexit
import ctypes
import io
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
    lib.launcher_main.restype = ctypes.c_int
    lib.launcher_warm_arg.restype = ctypes.c_char_p
    lib.launcher_warm_env.restype = ctypes.c_char_p
    after_fork = ctypes.pythonapi.PyOS_AfterFork_Child  # looked up here, once, not in every program
    argv = [b"launcher", *(a.encode() for a in args)]
    if lib.launcher_main(len(argv), (ctypes.c_char_p * (len(argv) + 1))(*argv, None)) != 1:
        return False
    after_fork()
    global request_arg, request_env
    request_arg, request_env = lib.launcher_warm_arg, lib.launcher_warm_env
    return True


def strings(get) -> list[bytes]:  # type: ignore[no-untyped-def]
    found = []
    while (item := get(len(found))) is not None:
        found.append(item)
    return found


def set_environment(items: list[bytes]) -> None:
    """The environment (os.environ, and the C one child processes get) made of `items` alone, as a fresh
    interpreter reads it (the first of a repeated name wins). Written directly, not name by name through
    the mapping's methods: those run a dozen functions that copy 90 more pages of the server per run."""
    data = os.environ._data  # type: ignore[attr-defined]  # os.environb shares it
    for name in data:
        os.unsetenv(name)
    data.clear()
    for item in items:
        name, eq, value = item.partition(b"=")
        if eq and name and name not in data:
            os.putenv(name, value)
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
    argv = [os.fsdecode(arg) for arg in strings(request_arg)]
    set_environment(strings(request_env))
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
    main = types.ModuleType("__main__")
    main.__file__ = script
    main.__builtins__ = __builtins__  # type: ignore[attr-defined]
    sys.modules["__main__"] = main

    def hook(kind, value, tb):  # type: ignore[no-untyped-def]
        """Tracebacks start at the program, as a fresh interpreter's do."""
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
        sys.__excepthook__(kind, value.with_traceback(tb), tb)

    sys.excepthook = hook
    try:
        with open(script, "rb") as f:
            code = compile(f.read(), script, "exec")
    except BaseException as e:  # raised in its turn, as a fresh interpreter would
        code, error = None, e
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
    vars(main).clear()
    gc.collect()  # the program's own objects only: the server's were frozen before it forked
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and not stream.closed:
                stream.flush()
        except Exception as e:  # reported as the interpreter reports it
            sys.__stderr__.write(f"Exception ignored in: {stream!r}\n{type(e).__name__}: {e}\n")
            status = status or 120
    return status


def start() -> None:
    library, modules, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    prefix, args = sys.argv[4 : 4 + count], sys.argv[4 + count :]
    unlimited_stack()
    for name in filter(None, modules.split(",")):
        try:
            __import__(name)
        except ImportError:
            pass
    compile("", "<warm>", "exec")  # a process's first compile builds the compiler's state: 1-2 ms
    import gc

    gc.collect()  # and empties the free lists, which a program's final collection would otherwise write to
    gc.freeze()  # what is here now is never collected: a program's collections skip it (and never copy it)
    if serve(library, args):
        run_program(prefix)  # never returns: the process ends with the program


GO_FD = 3  # launcher.c's WARM_GO_FD
request_arg = request_env = None
start()
