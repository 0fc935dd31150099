"""Who may call LangGraph Server, and what each caller sees (`auth` in `langgraph.json`).

Authentication: every request carries a token (`Authorization: Bearer <token>`, or `x-api-key`),
checked in constant time against the configured keys:

- `CODEWEAVER_API_KEYS="alice:token-a,bob:token-b"` (identity:token pairs), and/or
- `CODEWEAVER_API_KEYS_FILE`, a file of `identity:token` lines (`#` starts a comment).

An identity may hold several tokens (rotation); a token belongs to one identity. With neither
set, the server serves one local user, identity `default` (the CLI's tenant), whose token is
generated once into `$CODEWEAVER_HOME/server-token` (mode 0600); `codeweaver ui`, `codeweaver
assistants` and `codeweaver token` read it from there, other clients take `CODEWEAVER_TOKEN`.

Authorization: threads, runs (through their thread), assistants and crons carry
`metadata.owner`, stamped from the caller's identity on create and never changed afterwards;
every read, search, update and delete is filtered to the caller's own. The assistants the server
creates for each graph (`created_by: system`) are shared: everyone may read and run them, nobody
may change them. Store items live under a namespace whose first part is the caller's identity.

The caller's identity also scopes the answer cache and the local corpus: the graphs read it
from the run config (`codeweaver_runtime.tenancy`), never from client-supplied context.

Run settings are checked when a run, an assistant or a cron is created or changed: the
operator's settings (store path and URL, embedding model, collection, a model's own server
address) are refused with 403 and values no field accepts with 422, before anything runs
(`check_run_settings`).
"""

from __future__ import annotations

import asyncio
import hmac
import os
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, cast

from langgraph_sdk import Auth

from codeweaver.context import Context
from codeweaver.tokens import IDENTITY_PATH, local_token_path
from codeweaver_runtime import (
    OPERATOR_SETTINGS,
    ContextError,
    model_base_url,
    operator_model_names,
    private_dir,
    tighten,
)

KEYS_ENV = "CODEWEAVER_API_KEYS"
KEYS_FILE_ENV = "CODEWEAVER_API_KEYS_FILE"
LOCAL_IDENTITY = "default"
"""The single local user when no keys are configured: the same tenant the CLI uses."""
OWNER = "owner"
SYSTEM_CREATOR = "system"
MIN_TOKEN_LENGTH = 16
_IDENTITY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$")

auth = Auth()


class KeyConfigError(ValueError):
    """The configured keys are malformed; the message never contains a token."""


@dataclass(frozen=True)
class ApiKey:
    """One accepted token and the identity it authenticates."""

    identity: str
    token: str

    def __repr__(self) -> str:
        return f"ApiKey(identity={self.identity!r}, token=***)"


def parse_keys(text: str, *, origin: str) -> list[ApiKey]:
    """Parse `identity:token` pairs separated by commas or new lines.

    Args:
        text: The pairs; blank entries and `#` comments are ignored.
        origin: Where the text came from, for error messages.

    Raises:
        KeyConfigError: An entry is not `identity:token`, an identity has characters other than
            letters, digits and `_.@-`, or a token is shorter than 16 characters.
    """
    keys: list[ApiKey] = []
    for number, raw in enumerate(re.split(r"[,\n]", text), start=1):
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        identity, separator, token = (part.strip() for part in entry.partition(":"))
        if not separator or not identity or not token:
            raise KeyConfigError(f"{origin}, entry {number}: expected identity:token")
        if not _IDENTITY.match(identity):
            raise KeyConfigError(
                f"{origin}, entry {number}: identity {identity!r} may hold only letters, "
                "digits and _.@- (at most 128)"
            )
        if len(token) < MIN_TOKEN_LENGTH:
            raise KeyConfigError(
                f"{origin}, entry {number}: the token of {identity!r} is shorter than "
                f"{MIN_TOKEN_LENGTH} characters"
            )
        keys.append(ApiKey(identity, token))
    return keys


def check_unique(keys: Iterable[ApiKey]) -> list[ApiKey]:
    """The keys, refusing a token given to two identities (it could not say who calls)."""
    owners: dict[str, str] = {}
    unique: list[ApiKey] = []
    for key in keys:
        known = owners.get(key.token)
        if known is not None and known != key.identity:
            raise KeyConfigError(f"one token is given to both {known!r} and {key.identity!r}")
        if known is None:
            owners[key.token] = key.identity
            unique.append(key)
    return unique


def ensure_local_token(data_dir: Path | None = None) -> str:
    """The local user's token, generated (readable by the owner only) on first use.

    Creation is exclusive, so a server and a client starting together agree on one token.
    """
    path = local_token_path(data_dir)
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        tighten(path.parent, [path.name])
    else:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_urlsafe(32) + "\n")
    token = path.read_text(encoding="utf-8").strip()
    if len(token) < MIN_TOKEN_LENGTH:
        raise KeyConfigError(f"{path} holds no usable token; delete it to get a new one")
    return token


def configured_keys(environ: Mapping[str, str] | None = None) -> list[ApiKey]:
    """The keys from `CODEWEAVER_API_KEYS` and `CODEWEAVER_API_KEYS_FILE` (empty when unset).

    Raises:
        KeyConfigError: The keys are malformed or the keys file cannot be read.
    """
    env = os.environ if environ is None else environ
    keys = parse_keys(env.get(KEYS_ENV, ""), origin=KEYS_ENV)
    keys_file = env.get(KEYS_FILE_ENV, "").strip()
    if keys_file:
        path = Path(keys_file).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise KeyConfigError(f"{KEYS_FILE_ENV}: cannot read {path}: {exc.strerror}") from exc
        keys += parse_keys(text, origin=str(path))
    return check_unique(keys)


def server_keys(environ: Mapping[str, str] | None = None) -> list[ApiKey]:
    """The keys the server accepts: the configured ones, else the local user's token."""
    keys = configured_keys(environ)
    if keys:
        return keys
    return [ApiKey(LOCAL_IDENTITY, ensure_local_token())]


def identify(token: str, keys: Iterable[ApiKey]) -> str | None:
    """The identity owning `token`, comparing against every key in constant time."""
    found: str | None = None
    presented = token.encode()
    for key in keys:
        if hmac.compare_digest(presented, key.token.encode()):
            found = key.identity
    return found


def presented_token(headers: Mapping[bytes, bytes]) -> str | None:
    """The token of a request: `Authorization: Bearer <token>`, else `x-api-key`."""
    authorization = headers.get(b"authorization", b"").decode("latin-1").strip()
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    api_key = headers.get(b"x-api-key", b"").decode("latin-1").strip()
    return api_key or None


class KeyRing:
    """The tokens the server accepts, read once per process: a change takes a restart."""

    def __init__(self) -> None:
        self._keys: tuple[ApiKey, ...] | None = None

    async def keys(self) -> tuple[ApiKey, ...]:
        """The accepted keys; the first call reads files, so it runs off the event loop."""
        if self._keys is None:
            self._keys = tuple(await asyncio.to_thread(server_keys))
        return self._keys

    def forget(self) -> None:
        """Read the settings again on the next request."""
        self._keys = None


key_ring = KeyRing()


WHERE_TOKENS_COME_FROM = (
    "Send it as 'Authorization: Bearer <token>' or as 'X-Api-Key: <token>' (the header "
    'agent-chat-ui and Studio send from their "LangSmith API Key" field). On a local server '
    "(`codeweaver serve` or `langgraph dev` without CODEWEAVER_API_KEYS) the token is the output "
    "of `codeweaver token` (it lives in $CODEWEAVER_HOME/server-token); a deployment accepts the "
    "tokens its operator set in CODEWEAVER_API_KEYS or CODEWEAVER_API_KEYS_FILE, so ask the "
    "operator for yours."
)
MISSING = "Missing token: this server answers only requests that carry a token. " + (
    WHERE_TOKENS_COME_FROM
)
INVALID = "Invalid token: the token sent is not one this server accepts. " + (
    WHERE_TOKENS_COME_FROM
)


PUBLIC_ROUTES = frozenset({("POST", IDENTITY_PATH)})
"""CodeWeaver's own routes (`codeweaver.server.app`) open to a request without a token."""
PUBLIC_CALLER = "(public)"
"""Who a request to a public route is: no configured identity can be spelled so."""


@auth.authenticate
async def authenticate(
    headers: dict[bytes, bytes], method: str = "", path: str = ""
) -> Auth.types.MinimalUserDict:
    """Map the request's token to its identity, or refuse it with a 401 that says what to do.

    The 401's detail names both headers a token may travel in and where a token comes from,
    because a client such as agent-chat-ui otherwise shows nothing but a question that never
    gets an answer. It never repeats the token that was sent. A request to one of
    `PUBLIC_ROUTES` needs no token: it is nobody, and reaches only that route.
    """
    if (method.upper(), path) in PUBLIC_ROUTES:
        return {"identity": PUBLIC_CALLER, "is_authenticated": False}
    try:
        keys = await key_ring.keys()
    except (KeyConfigError, OSError) as exc:
        raise Auth.exceptions.HTTPException(
            status_code=500, detail=f"Server authentication is misconfigured: {exc}"
        ) from None
    token = presented_token(headers)
    if token is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail=MISSING)
    identity = identify(token, keys)
    if identity is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail=INVALID)
    return {"identity": identity, "display_name": identity, "is_authenticated": True}


Filter = Auth.types.FilterType
CREATES = frozenset({"create", "create_run"})
CHANGES = frozenset({"update", "delete"})


def _own(ctx: Auth.types.AuthContext) -> Filter:
    return {OWNER: ctx.user.identity}


def _metadata(value: Any) -> dict[str, Any] | None:
    metadata = value.get("metadata") if isinstance(value, dict) else None
    return metadata if isinstance(metadata, dict) else None


def _stamp_owner(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Make the caller the owner of what it creates, whatever the request said."""
    metadata = _metadata(value)
    if metadata is None:
        metadata = value["metadata"] = {}
    metadata[OWNER] = ctx.user.identity


def _refuse_foreign_owner(ctx: Auth.types.AuthContext, value: Any) -> None:
    metadata = _metadata(value) or {}
    if metadata.get(OWNER, ctx.user.identity) != ctx.user.identity:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="The owner of a resource cannot be changed."
        )


def _settings_in(container: Any) -> list[Mapping[str, Any]]:
    """The run settings a payload carries: its `context` and its `config.configurable`."""
    if not isinstance(container, Mapping):
        return []
    found: list[Mapping[str, Any]] = []
    context = container.get("context")
    if isinstance(context, Mapping):
        found.append(context)
    config = container.get("config")
    configurable = config.get("configurable") if isinstance(config, Mapping) else None
    if isinstance(configurable, Mapping):
        found.append(configurable)
    return found


def check_run_settings(container: Any) -> None:
    """Refuse run settings a client may not give: the operator's, and values that mean nothing.

    A run's or an assistant's context is written by the client; settings that reach a file, a
    process or a network address (`OPERATOR_SETTINGS`) belong to whoever runs the server, and
    every other value must be one its field accepts (`codeweaver.context.Context`).

    Raises:
        Auth.exceptions.HTTPException: 403 naming the operator settings; 422 naming the field
            whose value cannot be used.
    """
    known = {spec.name for spec in fields(Context)}
    for settings in _settings_in(container):
        operator = sorted(OPERATOR_SETTINGS & settings.keys())
        if operator:
            raise Auth.exceptions.HTTPException(
                status_code=403,
                detail=f"{', '.join(operator)}: set by the server's operator (its environment), "
                "never by a client's run or assistant context. Leave them out.",
            )
        _refuse_model_addresses(settings)
        try:
            Context(**{name: value for name, value in settings.items() if name in known})
        except ContextError as exc:
            raise Auth.exceptions.HTTPException(status_code=422, detail=str(exc)) from None


def _refuse_model_addresses(settings: Mapping[str, Any]) -> None:
    """Refuse a model name that carries a server address the operator did not configure.

    `provider:model@URL` sends the run's prompts (and a key) to that URL, so only the operator
    may name one (`CODEWEAVER_*_MODEL`); a client may repeat exactly such a name, or name a
    model without a URL.
    """
    allowed = operator_model_names()
    addressed = sorted(
        name
        for name, value in settings.items()
        if isinstance(value, str) and model_base_url(value) and value.strip() not in allowed
    )
    if addressed:
        raise Auth.exceptions.HTTPException(
            status_code=403,
            detail=f"{', '.join(addressed)}: a model's server address (provider:model@URL) is "
            "set by the server's operator (CODEWEAVER_CHAT_MODEL, CODEWEAVER_PLANNER_MODEL, "
            "CODEWEAVER_JUDGE_MODEL, CODEWEAVER_ANSWER_MODEL in its environment), never by a "
            "client. Name the model without '@URL', or use one the operator configured.",
        )


def _owned(ctx: Auth.types.AuthContext, value: Any) -> Filter:
    """Stamp on create, keep the owner on change, and see only one's own in every case."""
    if ctx.action in CREATES:
        _stamp_owner(ctx, value)
    elif ctx.action in CHANGES:
        _refuse_foreign_owner(ctx, value)
    return _own(ctx)


@auth.on
async def deny_unlisted(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Refuse any resource without a handler below (a safe default for future resources)."""
    return False


@auth.on.threads
async def on_threads(ctx: Auth.types.AuthContext, value: Any) -> Filter:
    """Threads and their runs, state and history: the caller's own only.

    A run (`create_run`) goes only on the caller's own thread; a thread-less run gets a fresh
    thread the caller owns.
    """
    if ctx.action == "create_run":
        check_run_settings(value.get("kwargs"))
    return _owned(ctx, value)


@auth.on.crons
async def on_crons(ctx: Auth.types.AuthContext, value: Any) -> Filter:
    """Scheduled runs: the caller's own only, like the runs they start."""
    if ctx.action in ("create", "update"):
        check_run_settings(value.get("payload"))
    return _owned(ctx, value)


@auth.on.assistants
async def on_assistants(ctx: Auth.types.AuthContext, value: Any) -> Filter:
    """Own assistants, plus read-only use of the server's per-graph ones (shared by all)."""
    if ctx.action == "create" and (_metadata(value) or {}).get("created_by") == SYSTEM_CREATOR:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail="Only the server creates system assistants."
        )
    if ctx.action in ("read", "search"):
        # The SDK's FilterType does not spell out `$or`; the server supports it.
        shared: Any = {"$or": [_own(ctx), {"created_by": SYSTEM_CREATOR}]}
        return cast(Filter, shared)
    if ctx.action in ("create", "update"):
        check_run_settings(value)
    return _owned(ctx, value)


@auth.on.store
async def on_store(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Store items only under the caller's own namespace (first part = identity)."""
    if ctx.action == "list_namespaces" and not value.get("namespace"):
        value["namespace"] = (ctx.user.identity,)
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != ctx.user.identity:
        raise Auth.exceptions.HTTPException(
            status_code=403,
            detail=f"Store namespaces must start with your identity ({ctx.user.identity!r}).",
        )
    return True


__all__ = [
    "KEYS_ENV",
    "KEYS_FILE_ENV",
    "LOCAL_IDENTITY",
    "PUBLIC_ROUTES",
    "ApiKey",
    "KeyConfigError",
    "auth",
    "check_run_settings",
    "configured_keys",
    "ensure_local_token",
    "identify",
    "parse_keys",
    "presented_token",
    "server_keys",
]
