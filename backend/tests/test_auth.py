"""The server's auth module without a server: keys, tokens, handlers, and the run's tenant."""

from __future__ import annotations

import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
import typer
from blockbuster import blockbuster_ctx
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime
from langgraph_sdk import Auth
from typer.testing import CliRunner
from typing_extensions import TypedDict

from codeweaver.cli.commands.serve import auth_summary
from codeweaver.cli.main import app
from codeweaver.context import Context
from codeweaver.server import auth as server_auth
from codeweaver.server.auth import (
    ApiKey,
    KeyConfigError,
    check_unique,
    configured_keys,
    ensure_local_token,
    identify,
    parse_keys,
    presented_token,
    server_keys,
)
from codeweaver.server.feedback import FeedbackInput, build_feedback_graph
from codeweaver.tokens import client_headers, client_token
from codeweaver_cache import (
    CacheState,
    SemanticCache,
    build_cache_lookup_graph,
    build_cache_store_graph,
)
from codeweaver_runtime import (
    Embedder,
    RuntimeContext,
    authenticated_user,
    open_qdrant,
    run_tenant,
    scoped_to_caller,
)
from codeweaver_search import SearchContext
from codeweaver_search.nodes import search_context
from tests.turns import QUESTION, cacheable, grounded

ALICE = "alice-token-0123456789"
BOB = "bob-token-0123456789ab"
runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh data dir and no configured keys; the server's key cache starts empty."""
    for name in ("CODEWEAVER_API_KEYS", "CODEWEAVER_API_KEYS_FILE", "CODEWEAVER_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CODEWEAVER_HOME", str(tmp_path))
    server_auth.key_ring.forget()
    yield tmp_path
    server_auth.key_ring.forget()


# --- keys ---------------------------------------------------------------------------------


def test_pairs_parse_from_commas_lines_and_comments() -> None:
    text = f" alice:{ALICE} ,\n# rotated next week\nbob : {BOB}  # bob's laptop\n\n"
    assert parse_keys(text, origin="env") == [ApiKey("alice", ALICE), ApiKey("bob", BOB)]
    # A token may itself hold colons: only the first one separates.
    assert parse_keys(f"svc@corp.example:{ALICE}:x", origin="env") == [
        ApiKey("svc@corp.example", f"{ALICE}:x")
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (ALICE, "expected identity:token"),
        ("alice:", "expected identity:token"),
        (f":{ALICE}", "expected identity:token"),
        (f"al ice:{ALICE}", "may hold only"),
        ("alice:short-token", "shorter than 16"),
    ],
)
def test_malformed_pairs_are_refused_without_echoing_the_token(text: str, message: str) -> None:
    with pytest.raises(KeyConfigError, match=message) as raised:
        parse_keys(text, origin="CODEWEAVER_API_KEYS")
    assert "CODEWEAVER_API_KEYS, entry 1" in str(raised.value)
    assert ALICE not in str(raised.value)
    assert "short-token" not in str(raised.value)


def test_one_token_for_two_identities_is_refused_but_rotation_is_fine() -> None:
    rotated = check_unique([ApiKey("alice", ALICE), ApiKey("alice", BOB), ApiKey("alice", ALICE)])
    assert rotated == [ApiKey("alice", ALICE), ApiKey("alice", BOB)]
    with pytest.raises(KeyConfigError, match="both 'alice' and 'bob'"):
        check_unique([ApiKey("alice", ALICE), ApiKey("bob", ALICE)])
    assert ALICE not in repr(ApiKey("alice", ALICE))


def test_keys_come_from_the_variable_and_the_file(tmp_path: Path) -> None:
    keys_file = tmp_path / "keys"
    keys_file.write_text(f"# team B\nbob:{BOB}\n", encoding="utf-8")
    environ = {"CODEWEAVER_API_KEYS": f"alice:{ALICE}", "CODEWEAVER_API_KEYS_FILE": str(keys_file)}
    assert configured_keys(environ) == [ApiKey("alice", ALICE), ApiKey("bob", BOB)]
    assert configured_keys({}) == []
    with pytest.raises(KeyConfigError, match="cannot read"):
        configured_keys({"CODEWEAVER_API_KEYS_FILE": str(tmp_path / "missing")})


def test_without_keys_the_local_user_gets_one_private_token(home: Path) -> None:
    assert client_token() is None
    keys = server_keys({})
    assert [key.identity for key in keys] == ["default"]
    path = home / "server-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ensure_local_token() == keys[0].token == client_token()
    assert len(keys[0].token) >= 32
    # Configured keys replace the local token.
    assert server_keys({"CODEWEAVER_API_KEYS": f"alice:{ALICE}"}) == [ApiKey("alice", ALICE)]
    path.write_text("x\n", encoding="utf-8")
    with pytest.raises(KeyConfigError, match="delete it"):
        ensure_local_token()


def test_a_client_token_from_the_environment_wins(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_local_token()
    monkeypatch.setenv("CODEWEAVER_TOKEN", BOB)
    assert client_token() == BOB
    assert client_headers() == {"Authorization": f"Bearer {BOB}"}
    assert client_headers(ALICE) == {"Authorization": f"Bearer {ALICE}"}


# --- authentication --------------------------------------------------------------------------


def test_tokens_map_to_their_identity_and_nothing_else() -> None:
    keys = [ApiKey("alice", ALICE), ApiKey("bob", BOB)]
    assert identify(ALICE, keys) == "alice"
    assert identify(BOB, keys) == "bob"
    assert identify(ALICE[:-1], keys) is None
    assert identify(ALICE + "0", keys) is None
    assert identify("", keys) is None


def test_the_token_travels_as_bearer_or_api_key() -> None:
    assert presented_token({b"authorization": f"Bearer {ALICE}".encode()}) == ALICE
    assert presented_token({b"authorization": f"bearer   {ALICE} ".encode()}) == ALICE
    assert presented_token({b"x-api-key": BOB.encode()}) == BOB
    both = {b"authorization": f"Bearer {ALICE}".encode(), b"x-api-key": BOB.encode()}
    assert presented_token(both) == ALICE
    assert presented_token({b"authorization": b"Basic YWxpY2U6eA=="}) is None
    assert presented_token({b"authorization": b"Bearer "}) is None
    assert presented_token({}) is None


async def test_authenticate_accepts_a_key_and_refuses_the_rest(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEWEAVER_API_KEYS", f"alice:{ALICE},bob:{BOB}")
    user = await server_auth.authenticate({b"authorization": f"Bearer {BOB}".encode()})
    assert user["identity"] == "bob"
    assert BOB not in repr(user)
    for headers, detail in (
        ({}, "Missing token: "),
        ({b"authorization": f"Bearer {ALICE}x".encode()}, "Invalid token: "),
        ({b"x-api-key": f"{ALICE}x".encode()}, "Invalid token: "),
    ):
        with pytest.raises(Auth.exceptions.HTTPException) as refused:
            await server_auth.authenticate(headers)
        assert refused.value.status_code == 401
        said = str(refused.value.detail)
        assert said.startswith(detail)
        assert ALICE not in said
        # What to do: which header carries the token, and where a token comes from.
        for hint in (
            "'Authorization: Bearer <token>'",
            "'X-Api-Key: <token>'",
            "`codeweaver token`",
            "CODEWEAVER_API_KEYS",
        ):
            assert hint in said, hint


async def test_misconfigured_keys_fail_closed(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEWEAVER_API_KEYS", "alice:too-short")
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        await server_auth.authenticate({b"authorization": b"Bearer too-short"})
    assert refused.value.status_code == 500
    assert "too-short" not in str(refused.value.detail)


async def test_the_local_user_is_the_default_tenant(home: Path) -> None:
    token = ensure_local_token()
    # `langgraph dev` fails a request that blocks its event loop: reading the token must not.
    with blockbuster_ctx():
        user = await server_auth.authenticate({b"authorization": f"Bearer {token}".encode()})
        assert user["identity"] == "default" == RuntimeContext().tenant


# --- authorization --------------------------------------------------------------------------


@dataclass(frozen=True)
class User:
    identity: str
    is_authenticated: bool = True
    display_name: str = ""
    permissions: tuple[str, ...] = ()


def ctx(resource: Any, action: Any, identity: str = "alice") -> Auth.types.AuthContext:
    user: Any = User(identity)
    return Auth.types.AuthContext(permissions=[], user=user, resource=resource, action=action)


async def test_creating_stamps_the_caller_as_owner_whatever_was_asked() -> None:
    # Handlers are called as the server calls them: keyword arguments, its payload types.
    value: Auth.types.ThreadsCreate = {"metadata": {"owner": "bob", "topic": "x"}}
    created = await server_auth.on_threads(ctx=ctx("threads", "create"), value=value)
    assert created == {"owner": "alice"}
    assert value["metadata"] == {"owner": "alice", "topic": "x"}
    bare: Auth.types.RunsCreate = {"thread_id": None}
    # The SDK leaves `RunsCreate` out of the threads handler's type; the server passes it.
    await server_auth.on_threads(
        ctx=ctx("threads", "create_run"), value=cast(Auth.types.ThreadsCreate, bare)
    )
    assert bare["metadata"] == {"owner": "alice"}
    # The SDK's `CronsCreate` has no `metadata`, yet the server's payload carries it.
    cron: dict[str, Any] = {"metadata": None}
    await server_auth.on_crons(ctx=ctx("crons", "create"), value=cast(Auth.types.CronsCreate, cron))
    assert cron["metadata"] == {"owner": "alice"}


@pytest.mark.parametrize("action", ["read", "search", "delete", "update"])
async def test_every_other_thread_action_sees_only_the_callers_own(action: str) -> None:
    filters = await server_auth.on_threads(ctx=ctx("threads", action), value={"metadata": {"a": 1}})
    assert filters == {"owner": "alice"}


async def _update(resource: str, owner: str) -> Any:
    """Alice updates one of her resources, asking for `owner` in its metadata."""
    context = ctx(resource, "update")
    metadata = {"owner": owner}
    if resource == "threads":
        return await server_auth.on_threads(ctx=context, value={"metadata": metadata})
    if resource == "crons":
        # The SDK's `CronsUpdate` has no `metadata`, yet the server's payload carries it.
        payload: dict[str, Any] = {"metadata": metadata}
        return await server_auth.on_crons(ctx=context, value=cast(Auth.types.CronsUpdate, payload))
    return await server_auth.on_assistants(ctx=context, value={"metadata": metadata})


@pytest.mark.parametrize("resource", ["threads", "assistants", "crons"])
async def test_the_owner_never_changes(resource: str) -> None:
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        await _update(resource, "bob")
    assert refused.value.status_code == 403
    assert await _update(resource, "alice") == {"owner": "alice"}


async def test_system_assistants_are_shared_for_reading_only() -> None:
    for action in ("read", "search"):
        filters: Any = await server_auth.on_assistants(ctx=ctx("assistants", action), value={})
        assert filters == {"$or": [{"owner": "alice"}, {"created_by": "system"}]}
    for action in ("update", "delete"):
        own = await server_auth.on_assistants(ctx=ctx("assistants", action), value={})
        assert own == {"owner": "alice"}
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        await server_auth.on_assistants(
            ctx=ctx("assistants", "create"), value={"metadata": {"created_by": "system"}}
        )
    assert refused.value.status_code == 403


async def test_store_namespaces_start_with_the_caller() -> None:
    assert await server_auth.on_store(ctx("store", "put"), {"namespace": ("alice", "notes")})
    with pytest.raises(Auth.exceptions.HTTPException):
        await server_auth.on_store(ctx("store", "get"), {"namespace": ("bob", "notes")})
    with pytest.raises(Auth.exceptions.HTTPException):
        await server_auth.on_store(ctx("store", "search"), {"namespace": ()})
    listing: dict[str, Any] = {"namespace": None}
    assert await server_auth.on_store(ctx("store", "list_namespaces"), listing)
    assert listing["namespace"] == ("alice",)


async def test_unknown_resources_are_refused() -> None:
    assert await server_auth.deny_unlisted(ctx("runs", "read"), {}) is False


# --- the run's tenant ------------------------------------------------------------------------


def server_config(user: str | None, thread: str = "t") -> RunnableConfig:
    """A run config as LangGraph Server passes it, with the authenticated user when given."""
    configurable: dict[str, Any] = {"thread_id": thread}
    if user is not None:
        configurable["langgraph_auth_user_id"] = user
    return {"configurable": configurable}


def test_the_authenticated_user_wins_over_the_context_tenant() -> None:
    context = RuntimeContext(tenant="alice")
    assert authenticated_user(server_config("bob")) == "bob"
    assert run_tenant(context, server_config("bob")) == "bob"
    assert run_tenant(context, server_config(None)) == "alice"
    assert run_tenant(context, server_config("")) == "alice"
    # Outside a running graph there is no caller: the context decides.
    assert authenticated_user() is None
    assert run_tenant(context) == "alice"
    assert scoped_to_caller(context, server_config("bob")).tenant == "bob"
    assert scoped_to_caller(context, server_config(None)) is context


class Seen(TypedDict, total=False):
    tenant: str


@pytest.mark.parametrize(
    ("schema", "tenant_of", "spoofed"),
    [
        # Any node of any package: the runtime's reading of the caller.
        (RuntimeContext, lambda runtime: run_tenant(runtime.context), RuntimeContext),
        # The search subgraph: whose documents the local source searches.
        (SearchContext, lambda runtime: search_context(runtime).tenant, Context),
    ],
    ids=["run_tenant", "search_context"],
)
async def test_a_node_reads_the_caller_from_its_run(
    schema: type[RuntimeContext],
    tenant_of: Callable[[Runtime[Any]], str],
    spoofed: type[RuntimeContext],
) -> None:
    async def note(state: Seen, runtime: Runtime[Any]) -> Seen:
        return {"tenant": tenant_of(runtime)}

    builder = StateGraph(Seen, context_schema=schema)
    builder.add_node("note", note)
    builder.add_edge(START, "note")
    graph = builder.compile()
    context = spoofed(tenant="alice")
    assert (await graph.ainvoke({}, server_config("bob"), context=context))["tenant"] == "bob"
    assert (await graph.ainvoke({}, server_config(None), context=context))["tenant"] == "alice"


async def test_the_cache_graphs_scope_entries_by_the_caller_not_the_context(
    embedder: Embedder,
) -> None:
    cache = SemanticCache(open_qdrant(":memory:"), embedder)
    store = build_cache_store_graph(cache=cache)
    lookup = build_cache_lookup_graph(cache=cache)
    answer = grounded("Use `reversed(xs)` or `xs[::-1]` [1].")
    turn: CacheState = {
        "messages": [HumanMessage(QUESTION)],
        "question": QUESTION,
        "analysis": cacheable(),
    }
    context = Context(tenant="alice")
    stored = await store.ainvoke(
        turn | {"answer": answer}, server_config("alice", "s"), context=context
    )
    assert stored["cache_stored"] is True, stored
    as_bob = await lookup.ainvoke(turn, server_config("bob", "b"), context=context)
    assert not as_bob["cache_decision"].hit, as_bob["cache_decision"]
    as_alice = await lookup.ainvoke(turn, server_config("alice", "a"), context=context)
    assert as_alice["cache_decision"].hit, as_alice["cache_decision"]

    # A "wrong answer" report from bob, even naming alice's entry, never evicts it.
    entry_id = as_alice["cache_decision"].entry_id
    feedback = build_feedback_graph(cache=cache)
    targets: list[FeedbackInput] = [{"entry_id": entry_id}, {"question": QUESTION}]
    for target in targets:
        report = await feedback.ainvoke(target, server_config("bob", "f"), context=context)
        assert report["feedback_evicted"] == 0, target
    again = await lookup.ainvoke(turn, server_config("alice", "a2"), context=context)
    assert again["cache_decision"].entry_id == entry_id
    report = await feedback.ainvoke(
        {"entry_id": entry_id}, server_config("alice", "f2"), context=context
    )
    assert report["feedback_evicted"] == 1


# --- the command line ------------------------------------------------------------------------


def test_token_prints_the_local_token_and_refuses_with_configured_keys(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    printed = runner.invoke(app, ["token"])
    assert printed.exit_code == 0, printed.output
    assert printed.stdout.strip() == (home / "server-token").read_text().strip()
    assert runner.invoke(app, ["token"]).stdout == printed.stdout
    monkeypatch.setenv("CODEWEAVER_API_KEYS", f"alice:{ALICE}")
    refused = runner.invoke(app, ["token"])
    assert refused.exit_code == 1
    assert ALICE not in refused.output
    monkeypatch.setenv("CODEWEAVER_API_KEYS", "alice")
    assert runner.invoke(app, ["token"]).exit_code == 2


def test_serve_says_how_clients_authenticate_without_printing_a_token(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEWEAVER_API_KEYS", f"alice:{ALICE},bob:{BOB}")
    assert "2 identities" in auth_summary()
    monkeypatch.delenv("CODEWEAVER_API_KEYS")
    local = auth_summary()
    assert "server-token" in " ".join(local.split())
    assert ensure_local_token() not in local
    monkeypatch.setenv("CODEWEAVER_API_KEYS", "bob:short")
    with pytest.raises(typer.Exit):
        auth_summary()
