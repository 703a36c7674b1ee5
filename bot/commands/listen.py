"""`cpbot listen`: receive problems from the Competitive Companion browser extension."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("listen")
@click.option(
    "--port", type=click.IntRange(1, 65535), help="Port to listen on (default: 10043, one of the extension's)."
)
@click.option(
    "-o",
    "--output",
    "out_dir",
    default=Path("."),
    type=click.Path(file_okay=False, path_type=Path),
    help="Where each problem's folder is written.",
)
@click.option("--batches", default=0, type=click.IntRange(0), help="Stop after this many complete batches.")
@click.option("--json", "as_json", is_flag=True, help="Print each received Problem as JSON (one per line).")
@click.option("--force", is_flag=True, help="Overwrite a problem folder that already exists.")
def listen(port: int | None, out_dir: Path, batches: int, as_json: bool, force: bool) -> None:
    """Save the problems Competitive Companion sends from your browser.

    Add the port to the extension's custom ports (10043 is one of its defaults). Each problem is
    written like `cpbot fetch` writes it; a contest arrives as one batch. Listens on 127.0.0.1 only.
    An existing folder is kept: the problem goes to a new one (NAME-2, ...) unless --force is given.
    """
    import threading

    from cpbot.bot.app.problem_folder import free_dir, problem_dirname, save_problem
    from cpbot.bot.report.render import describe_problem
    from cpbot.core.terminal import printable_line
    from cpbot.scrapers.companion_server import DEFAULT_PORT, CompanionServer, Received

    lock = threading.Lock()
    done = {"batches": 0}

    def on_problem(got: Received) -> None:
        with lock:  # one at a time: two problems of a batch must not pick the same free folder
            directory = free_dir(out_dir / problem_dirname(got.problem), force)
            save_problem(got.problem, directory)
            if as_json:
                click.echo(got.problem.model_dump_json())
            else:
                click.echo(f"{describe_problem(got.problem)} -> {directory} [{got.batch_received}/{got.batch_size}]")
            if got.batch_complete:
                done["batches"] += 1
                if batches and done["batches"] >= batches:
                    server.shutdown()

    def on_error(error: Exception) -> None:
        click.echo(f"error: {printable_line(str(error))}", err=True)

    server = CompanionServer(on_problem, on_error, port=port or DEFAULT_PORT)
    if not as_json:
        click.echo(f"listening on http://127.0.0.1:{server.port} for Competitive Companion (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.close()
