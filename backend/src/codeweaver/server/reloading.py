"""`langgraph dev --reload` run outside the project folder, its reloader watching the project.

`codeweaver serve` runs the development server in its own folder of the data directory
(`codeweaver.persistence.server_dir`), because the server keeps its records in `.langgraph_api/`
of its working folder. Uvicorn's reloader watches the working folder unless it is given others,
and `langgraph dev` gives it none: run there, it would watch the server's records and never the
code. This runs `langgraph dev` with the reloader watching the project instead.

    python -m codeweaver.server.reloading PROJECT_FOLDER dev --config ... (langgraph's arguments)
"""

from __future__ import annotations

import functools
import sys


def main(argv: list[str] | None = None) -> None:
    """Run `langgraph` with `argv[1:]`, its reloader watching `argv[0]`."""
    args = sys.argv[1:] if argv is None else argv
    watched, langgraph = args[0], args[1:]
    from langgraph_api import cli as api_cli  # type: ignore[import-untyped]
    from langgraph_cli.cli import cli

    # `langgraph dev` imports `run_server` when it runs, and hands uvicorn whatever keyword
    # arguments `uvicorn.run` accepts: `reload_dirs` among them.
    api_cli.run_server = functools.partial(api_cli.run_server, reload_dirs=[watched])
    cli.main(args=langgraph, prog_name="langgraph")


if __name__ == "__main__":
    main()
