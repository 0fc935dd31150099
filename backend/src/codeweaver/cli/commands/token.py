"""`codeweaver token`: the local user's server token, for Studio, curl or the SDK."""

from __future__ import annotations

import sys

import typer

from codeweaver.cli.console import err


def token() -> None:
    """Print the local user's server token (created on first use), for Studio, curl or the SDK.

    `codeweaver serve` without CODEWEAVER_API_KEYS accepts only this token; send it as
    `Authorization: Bearer <token>`. It lives in $CODEWEAVER_HOME/server-token.
    """
    from codeweaver.server.auth import KEYS_ENV, KeyConfigError, configured_keys, ensure_local_token

    try:
        if configured_keys():
            err.print(
                f"[yellow]{KEYS_ENV} is set: the server accepts those tokens, not the local "
                "one. Use the token you were given.[/yellow]"
            )
            raise typer.Exit(code=1)
        sys.stdout.write(ensure_local_token() + "\n")
    except (KeyConfigError, OSError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(code=2) from exc
