"""Where bench and grade tasks run: threads of this process (`local`) or Ray tasks on a cluster (`ray`).

An executor's `results(function, arguments)` calls `function(*args, sandbox=...)` for every tuple of
arguments and yields the return values as they finish, in any order: in threads sharing the executor's
sandbox (the judge's slot pool), or as Ray tasks whose workers judge in their process's default sandbox
(`function` must then be a module-level function and the arguments and results picklable). `run` is
the bench's use of it: the bench settings and the (problem key, strategy, sample) tasks still to do, each
`TaskResult` yielded as it finishes. Ray bench tasks get only the settings and a key (the dataset is
rebuilt inside the task from its path) and return JSON, so nothing unpicklable crosses to a worker.
Ray is optional (`pip install cpbot[ray]`); the local executor needs nothing more.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cpbot.core.errors import ConfigError
from cpbot.judge.languages.python import judge_variables
from cpbot.judge.sandbox import Sandbox

if TYPE_CHECKING:  # the bench's task brings the agents along, which grading (also run here) does not need
    from cpbot.bot.bench.task import BenchSettings, TaskResult

Pair = tuple[str, str, int]  # (problem key, strategy, sample number)
LOCAL_START_ATTEMPTS = 3
R = TypeVar("R")


class Executor(Protocol):
    """Runs tasks and yields their results as they finish."""

    name: str

    def results(self, function: Callable[..., R], arguments: Iterable[tuple[Any, ...]]) -> Iterator[R]:
        """`function(*args, sandbox=...)` for every tuple of `arguments`; the values as they come."""
        ...

    def run(self, settings: BenchSettings, pairs: Sequence[Pair]) -> Iterator[TaskResult]:
        """Run every bench pair; yield results as they come."""
        ...

    def close(self) -> None:
        """Free what the executor started."""
        ...


class LocalExecutor:
    """`jobs` tasks at once in threads of this process, sharing one sandbox (the judge's slot pool)."""

    name = "local"

    def __init__(self, jobs: int = 1, *, sandbox: Sandbox | None = None) -> None:
        self.jobs = max(1, jobs)
        self.sandbox = sandbox

    def results(self, function: Callable[..., R], arguments: Iterable[tuple[Any, ...]]) -> Iterator[R]:
        """The calls in a thread pool, `jobs` at once; one that raises stops the rest (what finished was
        yielded). A finished call's place is given to the next before its value is yielded, so the
        caller's handling of a value (recording it) never leaves a thread idle."""
        todo = iter(arguments)
        pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="task")
        running: set[Future[R]] = set()
        done: set[Future[R]] = set()
        try:
            while True:
                while len(running) < self.jobs and (args := next(todo, None)) is not None:
                    running.add(pool.submit(function, *args, sandbox=self.sandbox))
                for future in done:
                    yield future.result()
                if not running:
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
        finally:
            for future in running:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)

    def run(self, settings: BenchSettings, pairs: Sequence[Pair]) -> Iterator[TaskResult]:
        """Run the pairs in a thread pool; a task that raises stops the bench (finished results are kept)."""
        return self.results(_local_task, [(settings, *pair) for pair in pairs])

    def close(self) -> None:
        """Nothing to free."""


def _local_task(settings: BenchSettings, key: str, strategy: str, sample: int, sandbox: Sandbox | None) -> TaskResult:
    from cpbot.bot.bench.task import run_task

    return run_task(settings, key, strategy, sample=sample, sandbox=sandbox)


def _ray_task(settings_json: str, key: str, strategy: str, sample: int = 0, sandbox: None = None) -> str:
    """A Ray task: one bench task in a worker, the result as JSON."""
    from cpbot.bot.bench.task import BenchSettings, run_task

    settings = BenchSettings.model_validate_json(settings_json)
    return run_task(settings, key, strategy, sample=sample).model_dump_json()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "the Ray executor needs Ray", hint="pip install 'cpbot[ray]' (or use --executor local)"
        ) from None
    return ray


class RayExecutor:
    """Tasks on the Ray cluster at `address`, or on a local one started here (and stopped by `close`)."""

    name = "ray"

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None) -> None:
        ray = _import_ray()
        self.ray = ray
        self.owned = False
        if not ray.is_initialized():
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage reports leave the machine
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            # the workers judge with the interpreters chosen here (--python, [judge] python)
            if variables := judge_variables():
                options["runtime_env"] = {"env_vars": variables}
            if address:
                try:
                    ray.init(address=address, **options)
                except Exception as e:  # Ray raises ConnectionError, AuthenticationError, RuntimeError, ...
                    ray.shutdown()
                    raise cluster_error(address, e) from None
            else:
                self._start_local(num_cpus, options)
            self.owned = True

    def _start_local(self, num_cpus: int | None, options: dict[str, Any]) -> None:
        """A local cluster; on a machine so busy that Ray's own 30 s wait for its raylet runs out, again."""
        for attempt in range(1, LOCAL_START_ATTEMPTS + 1):
            try:
                self.ray.init(num_cpus=num_cpus, _node_ip_address="127.0.0.1", **options)
                return
            except Exception as e:  # Ray raises a bare Exception for this one
                _stop_unstarted_node(e)
                self.ray.shutdown()
                if "timed out during startup" not in str(e) or attempt == LOCAL_START_ATTEMPTS:
                    raise

    def results(self, function: Callable[..., R], arguments: Iterable[tuple[Any, ...]]) -> Iterator[R]:
        """Every call a task (Ray schedules them over the cluster's CPUs, one each; a worker judges in its
        process's default sandbox); the values as they finish."""
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=0)(function)
        pending = [remote.remote(*args) for args in arguments]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def run(self, settings: BenchSettings, pairs: Sequence[Pair]) -> Iterator[TaskResult]:
        """Submit every pair as a task; yield as they finish."""
        # the API key travels inside the settings, to the cluster's workers only
        from cpbot.bot.bench.task import TaskResult

        payload = _with_key(settings)
        for result in self.results(_ray_task, [(payload, *pair) for pair in pairs]):
            yield TaskResult.model_validate_json(result)

    def close(self) -> None:
        """Stop the local cluster if this executor started it."""
        if self.owned:
            self.ray.shutdown()
            self.owned = False


# What Ray says when the cluster wants a token cpbot did not give (or gave a wrong one).
_AUTH_MARKS = ("InvalidAuthToken", "AuthenticationError", "UNAUTHENTICATED", "auth token", "authentication")
AUTH_HINT = (
    "the cluster uses token authentication: run cpbot with RAY_AUTH_MODE=token and the cluster's token in "
    "RAY_AUTH_TOKEN (or in a file named by RAY_AUTH_TOKEN_PATH, or in ~/.ray/auth_token); "
    "`ray get-auth-token` on the head node prints it"
)


def cluster_error(address: str, error: BaseException) -> ConfigError:
    """The one-line error for a Ray cluster cpbot cannot join: refused authentication, or no cluster there."""
    text = f"{type(error).__name__}: {error}"
    first = " ".join(line.strip() for line in text.splitlines() if line.strip())  # one line
    if len(first) > 300:
        first = first[:300] + "..."
    if any(mark.lower() in text.lower() for mark in _AUTH_MARKS):
        return ConfigError(f"the Ray cluster at {address} refused cpbot's authentication ({first})", hint=AUTH_HINT)
    return ConfigError(
        f"cannot join the Ray cluster at {address} ({first})",
        hint="check --address (the head node's host:port, e.g. 10.0.0.5:6379, or ray://host:10001) and that the "
        "cluster is running (`ray status` on its head node); or use --executor local",
    )


def _stop_unstarted_node(error: BaseException) -> None:
    """Stop (and reap) the processes of a Ray node that failed to start: it never became Ray's global
    node, so `ray.shutdown` does not know them, and they would run on."""
    frame = error.__traceback__
    while frame is not None:
        node = frame.tb_frame.f_locals.get("self")
        if type(node).__name__ == "Node" and hasattr(node, "kill_all_processes"):
            node.kill_all_processes(check_alive=False, allow_graceful=False, wait=True)
            return
        frame = frame.tb_next


def _with_key(settings: BenchSettings) -> str:
    """The settings as JSON with the real API key (pydantic writes secrets masked)."""
    data = json.loads(settings.model_dump_json())
    data["llm"]["api_key"] = settings.llm.api_key.get_secret_value()
    return json.dumps(data)


def make_executor(kind: str, *, jobs: int = 1, address: str | None = None, sandbox: Sandbox | None = None) -> Executor:
    """The executor named `kind` (local or ray)."""
    if kind == "local":
        return LocalExecutor(jobs, sandbox=sandbox)
    if kind == "ray":
        return RayExecutor(address, num_cpus=None if address else jobs)
    raise ConfigError(f"unknown executor {kind!r}", hint="use local or ray")
