"""Tenants through LangGraph Server: tokens, private threads, runs and assistants, and a cache
that never serves one tenant another's answer.

One `langgraph dev` with two configured keys (alice and bob) serves the module; each test acts
as one of them through `support.client(server, identity)`.
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk.errors import ConflictError, NotFoundError, PermissionDeniedError

from tests import support
from tests.support import Server, start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]

QUESTION = "How do I reverse a list in Python?"
KEYS = {
    "alice": f"cw-alice-{secrets.token_urlsafe(24)}",
    "bob": f"cw-bob-{secrets.token_urlsafe(24)}",
}
SYSTEM_GRAPHS = {"codeweaver", "search", "cache_lookup", "cache_store", "cache_feedback"}


@pytest.fixture(scope="module")
def tenants(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that accepts alice's and bob's tokens and nothing else."""
    proc, running = start_server(tmp_path_factory.mktemp("auth"), jobs=2, keys=KEYS)
    try:
        yield running
    finally:
        stop_server(proc)


def metadata(record: Mapping[str, object]) -> dict[str, Any]:
    """A thread's or assistant's metadata: the SDK allows none, but the server always stamps one."""
    found = record["metadata"]
    assert isinstance(found, dict), record
    return found


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def _says_what_to_do(detail: str) -> None:
    """A 401 names both headers a token travels in and where a token comes from."""
    assert "'Authorization: Bearer <token>'" in detail
    assert "'X-Api-Key: <token>'" in detail
    assert "`codeweaver token`" in detail
    assert "CODEWEAVER_API_KEYS" in detail


def test_requests_need_a_valid_token(tenants: Server) -> None:
    search = f"{tenants.url}/threads/search"
    missing = httpx.post(search, json={})
    assert missing.status_code == 401
    assert missing.json()["detail"].startswith("Missing token: ")
    _says_what_to_do(missing.json()["detail"])
    wrong = httpx.post(search, json={}, headers={"Authorization": "Bearer not-a-key-0123456789"})
    assert wrong.status_code == 401
    assert wrong.json()["detail"].startswith("Invalid token: ")
    _says_what_to_do(wrong.json()["detail"])
    assert "not-a-key-0123456789" not in wrong.text
    wrong_key = httpx.post(search, json={}, headers={"X-Api-Key": "not-a-key-0123456789"})
    assert wrong_key.status_code == 401
    assert wrong_key.json() == wrong.json()
    # Another identity's token with a character changed is no token at all.
    altered = KEYS["alice"][:-1] + ("A" if KEYS["alice"][-1] != "A" else "B")
    near = httpx.post(search, json={}, headers={"Authorization": f"Bearer {altered}"})
    assert near.status_code == 401
    # The Studio scheme is no way around the token (disable_studio_auth).
    studio = httpx.post(search, json={}, headers={"x-auth-scheme": "langsmith"})
    assert studio.status_code == 401
    assert httpx.post(search, json={}, headers={"x-api-key": KEYS["bob"]}).status_code == 200
    assert httpx.post(search, json={}, headers=tenants.headers_of("alice")).status_code == 200
    # Health checks stay open: load balancers carry no token.
    assert httpx.get(f"{tenants.url}/ok").status_code == 200


PUBLIC = ("/", "/ok", "/info", "/docs", "/openapi.json", "/metrics")
"""What LangGraph Server answers without a token (docs/DEPLOYMENT.md lists the same)."""
IDENTITY = "/codeweaver/identity"
"""CodeWeaver's own public route: `codeweaver serve`'s server proves its identity there."""
DEV_ROUTES = ("/internal/", "/deploy")
"""`langgraph dev`'s test and deploy routes, which the server mounts outside authentication."""


async def test_langgraph_devs_own_routes_cannot_wipe_or_read_threads(tenants: Server) -> None:
    async with (
        support.client(tenants, "alice") as alice,
        httpx.AsyncClient(base_url=tenants.url) as anyone,
    ):
        thread = await alice.threads.create(metadata={"topic": "kept"})
        # A plain cross-site form POST: no token, no preflight, any page could send it.
        wipe = await anyone.post("/internal/truncate", headers={"Origin": "https://evil.example"})
        peek = await anyone.get(f"/internal/debug/thread/{thread['thread_id']}")
        deploy = await anyone.get("/deploy")
        kept = await alice.threads.get(thread["thread_id"])
    assert [wipe.status_code, peek.status_code, deploy.status_code] == [404, 404, 404]
    assert "kept" not in peek.text
    assert metadata(kept)["topic"] == "kept"


def test_a_dns_rebinding_page_reads_not_even_the_public_routes(tenants: Server) -> None:
    port = httpx.URL(tenants.url).port
    for path in PUBLIC:
        rebound = httpx.get(f"{tenants.url}{path}", headers={"Host": f"evil.example:{port}"})
        assert rebound.status_code == 403, (path, rebound.status_code)
        here = httpx.get(f"{tenants.url}{path}", headers={"Host": f"localhost:{port}"})
        assert here.status_code == 200, (path, here.status_code)


def test_only_the_documented_endpoints_are_public(tenants: Server) -> None:
    for path in PUBLIC:
        response = httpx.get(f"{tenants.url}{path}")
        assert response.status_code == 200, (path, response.status_code)
    # No token needed, and nothing to prove here: this server was not started by `serve`.
    nonce = {"nonce": secrets.token_urlsafe(24)}
    identity = httpx.post(f"{tenants.url}{IDENTITY}", json=nonce)
    assert identity.status_code == 404, identity.text
    assert "codeweaver serve" in identity.json()["detail"]
    assert "version" in httpx.get(f"{tenants.url}/info").json()
    assert "# TYPE" in httpx.get(f"{tenants.url}/metrics").text
    # Every other route the server documents refuses a request without a token, whatever
    # the method: the public set above is all of it.
    spec = httpx.get(f"{tenants.url}/openapi.json").json()
    checked = 0
    for template, operations in spec["paths"].items():
        if template in (*PUBLIC, IDENTITY):
            continue
        path = re.sub(r"\{[^}]+\}", str(uuid.uuid4()), template)
        for method in operations:
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            response = httpx.request(method.upper(), f"{tenants.url}{path}", json={})
            if template.startswith(DEV_ROUTES):
                # langgraph dev's own routes, outside authentication: not served at all.
                assert response.status_code == 404, (method, template, response.status_code)
                continue
            assert response.status_code == 401, (method, template, response.status_code)
            _says_what_to_do(response.json()["detail"])
            checked += 1
    assert checked > 50
    for template in ("/threads/search", "/assistants/search"):
        assert template in spec["paths"]
    # LangGraph Server's own MCP endpoint is off; CodeWeaver's `/mcp` is not in the spec, so it
    # is checked here by name.
    assert "/mcp/" not in spec["paths"]
    for method in ("GET", "POST", "DELETE"):
        response = httpx.request(method, f"{tenants.url}/mcp", json={})
        assert response.status_code == 401, (method, response.status_code)
        _says_what_to_do(response.json()["detail"])
    # Not in the spec, so named here: Studio's own page and ReDoc are not served publicly.
    for path in ("/redoc", "/studio"):
        assert httpx.get(f"{tenants.url}{path}").status_code == 401, path
    # GET /ui/... serves generative-UI bundles without a token (the server's choice);
    # CodeWeaver ships none, so there is nothing to read there.
    assert httpx.get(f"{tenants.url}/ui/codeweaver/entrypoint.js").status_code != 200


async def test_threads_and_runs_are_invisible_to_other_tenants(tenants: Server) -> None:
    async with support.client(tenants, "alice") as alice, support.client(tenants, "bob") as bob:
        thread = await alice.threads.create(metadata={"topic": "private"})
        thread_id = thread["thread_id"]
        assert metadata(thread)["owner"] == "alice"
        run = await alice.runs.create(thread_id, "cache_feedback", input={})
        await alice.runs.join(thread_id, run["run_id"])

        with pytest.raises(NotFoundError):
            await bob.threads.get(thread_id)
        with pytest.raises(NotFoundError):
            await bob.threads.get_state(thread_id)
        with pytest.raises(NotFoundError):
            await bob.runs.get(thread_id, run["run_id"])
        with pytest.raises(NotFoundError):
            await bob.runs.create(thread_id, "cache_feedback", input={})
        with pytest.raises(NotFoundError):
            await bob.threads.update(thread_id, metadata={"topic": "taken"})
        with pytest.raises(NotFoundError):
            await bob.threads.delete(thread_id)
        with pytest.raises(NotFoundError):
            await bob.runs.list(thread_id)
        assert thread_id not in {t["thread_id"] for t in await bob.threads.search(limit=100)}
        assert thread_id not in {
            t["thread_id"] for t in await bob.threads.search(metadata={"owner": "alice"})
        }

        # Alice still has it all, untouched.
        kept = await alice.threads.get(thread_id)
        assert metadata(kept)["topic"] == "private"
        assert metadata(kept)["owner"] == "alice"
        assert [r["run_id"] for r in await alice.runs.list(thread_id)] == [run["run_id"]]
        assert thread_id in {t["thread_id"] for t in await alice.threads.search(limit=100)}

        # Claiming someone else as owner neither hands them the thread nor hides it from bob.
        planted = await bob.threads.create(metadata={"owner": "alice"})
        assert metadata(planted)["owner"] == "bob"
        assert planted["thread_id"] not in {
            t["thread_id"] for t in await alice.threads.search(limit=100)
        }
        with pytest.raises(PermissionDeniedError):
            await bob.threads.update(planted["thread_id"], metadata={"owner": "alice"})


async def test_assistants_are_private_and_the_system_ones_shared(tenants: Server) -> None:
    async with support.client(tenants, "alice") as alice, support.client(tenants, "bob") as bob:
        mine = await alice.assistants.create(
            "cache_feedback", name="alice-feedback", metadata={"team": "a"}
        )
        assistant_id = mine["assistant_id"]
        assert metadata(mine)["owner"] == "alice"
        with pytest.raises(NotFoundError):
            await bob.assistants.get(assistant_id)
        with pytest.raises(NotFoundError):
            await bob.assistants.update(assistant_id, name="taken")
        with pytest.raises(NotFoundError):
            await bob.assistants.delete(assistant_id)
        assert assistant_id not in {a["assistant_id"] for a in await bob.assistants.search()}
        # A run on alice's assistant is refused for bob (his thread, her assistant).
        thread = await bob.threads.create()
        with pytest.raises((NotFoundError, ConflictError)):
            await bob.runs.create(thread["thread_id"], assistant_id, input={})

        # Every graph's system assistant: both may read and run it, nobody may change it.
        for client in (alice, bob):
            graphs = {a["graph_id"] for a in await client.assistants.search(limit=50)}
            assert graphs >= SYSTEM_GRAPHS
        system = (await bob.assistants.search(graph_id="cache_feedback", limit=10))[0]
        assert metadata(system).get("created_by") == "system"
        result = await bob.runs.wait(None, system["assistant_id"], input={})
        assert isinstance(result, dict)
        assert "Nothing to report" in result["feedback_message"]
        with pytest.raises(NotFoundError):
            await bob.assistants.update(system["assistant_id"], name="bob's now")
        with pytest.raises(PermissionDeniedError):
            await bob.assistants.create(
                "cache_feedback", name="fake-system", metadata={"created_by": "system"}
            )
        assert await alice.assistants.get(assistant_id)


async def _ask(client: Any, question: str, **options: Any) -> dict[str, Any]:
    thread = await client.threads.create()
    await client.runs.wait(
        thread["thread_id"], options.pop("assistant", "codeweaver"), input=ask(question), **options
    )
    state = await client.threads.get_state(thread["thread_id"])
    values: dict[str, Any] = state["values"]
    return values


async def test_the_cache_never_crosses_tenants(tenants: Server) -> None:
    async with support.client(tenants, "alice") as alice, support.client(tenants, "bob") as bob:
        first = await _ask(alice, QUESTION)
        assert first["answer"]["citations"], first["answer"]
        assert first["cache_decision"]["hit"] is False
        again = await _ask(alice, QUESTION)
        assert again["cache_decision"]["hit"] is True, again["cache_decision"]
        assert again["answer"]["from_cache"] is True
        alice_entry = again["cache_decision"]["entry_id"]

        # Bob names alice as his tenant twice over, in his assistant and in the run: still his.
        spoofing = await bob.assistants.create(
            "codeweaver", name="bob-as-alice", context={"tenant": "alice"}
        )
        spoofed = await _ask(
            bob, QUESTION, assistant=spoofing["assistant_id"], context={"tenant": "alice"}
        )
        assert spoofed["cache_decision"]["hit"] is False, spoofed["cache_decision"]
        assert not spoofed["answer"].get("from_cache")
        own = await _ask(bob, QUESTION)
        assert own["cache_decision"]["hit"] is True, own["cache_decision"]
        assert own["cache_decision"]["entry_id"] != alice_entry

        # Bob's "wrong answer" report evicts his entry, never alice's.
        report = await bob.runs.wait(None, "cache_feedback", input={"entry_id": alice_entry})
        assert isinstance(report, dict)
        assert report["feedback_evicted"] == 0
        assert (await _ask(alice, QUESTION))["cache_decision"]["entry_id"] == alice_entry


async def test_tokens_never_reach_logs_state_or_answers(tenants: Server) -> None:
    """Runs on the module's server after the others: everything they left is grepped."""
    async with support.client(tenants, "alice") as alice, support.client(tenants, "bob") as bob:
        await _ask(alice, QUESTION)
        texts = [tenants.log.read_text(encoding="utf-8", errors="replace")]
        for client in (alice, bob):
            for thread in await client.threads.search(limit=100):
                thread_id = thread["thread_id"]
                texts.append(repr(thread))
                texts.append(repr(await client.threads.get_state(thread_id)))
                texts.append(repr(await client.threads.get_history(thread_id, limit=100)))
                for run in await client.runs.list(thread_id):
                    texts.append(repr(run))
            texts.append(repr(await client.assistants.search(limit=50)))
    blob = "\n".join(texts)
    assert "owner" in blob  # the grep saw real threads
    for identity, token in KEYS.items():
        assert token not in blob, f"{identity}'s token leaked"


async def test_each_user_gets_their_own_example_assistants(tenants: Server) -> None:
    from codeweaver.server.assistants import create_example_assistants

    made = {
        identity: await create_example_assistants(tenants.url, token=token)
        for identity, token in KEYS.items()
    }
    assert {a["metadata"]["owner"] for a in made["alice"]} == {"alice"}
    assert {a["metadata"]["owner"] for a in made["bob"]} == {"bob"}
    # Running it again updates alice's own, rather than bob's or a second set.
    again = await create_example_assistants(tenants.url, token=KEYS["alice"])
    assert [a["assistant_id"] for a in again] == [a["assistant_id"] for a in made["alice"]]
    async with support.client(tenants, "bob") as bob:
        visible = {a["assistant_id"] for a in await bob.assistants.search(limit=100)}
    assert visible.isdisjoint(a["assistant_id"] for a in made["alice"])
    assert visible >= {a["assistant_id"] for a in made["bob"]}


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("qdrant_path", "/srv/anywhere"),
        ("qdrant_url", "http://127.0.0.1:9999"),
        ("embedding_model", "/etc"),
        ("cache_collection", "elsewhere"),
        ("answer_model", "openai:gpt-4o@http://169.254.169.254/v1"),
    ],
)
def test_operator_settings_from_a_client_are_refused(
    tenants: Server, tmp_path: Path, setting: str, value: str
) -> None:
    """A client naming a folder, an address or a model file gets 403, and nothing is touched."""
    if setting == "qdrant_path":
        value = str(tmp_path / "planted")
    headers = tenants.headers_of("alice")
    run = httpx.post(
        f"{tenants.url}/runs/wait",
        json={"assistant_id": "codeweaver", "input": ask(QUESTION), "context": {setting: value}},
        headers=headers,
        timeout=60,
    )
    assert run.status_code == 403, run.text
    assert setting in run.json()["detail"]
    assert "operator" in run.json()["detail"]
    assistant = httpx.post(
        f"{tenants.url}/assistants",
        json={"graph_id": "codeweaver", "context": {setting: value}},
        headers=headers,
        timeout=30,
    )
    assert assistant.status_code == 403, assistant.text
    configured = httpx.post(
        f"{tenants.url}/assistants",
        json={"graph_id": "codeweaver", "config": {"configurable": {setting: value}}},
        headers=headers,
        timeout=30,
    )
    assert configured.status_code == 403, configured.text
    assert not (tmp_path / "planted").exists()


def test_meaningless_run_settings_are_refused_before_the_run(tenants: Server) -> None:
    headers = tenants.headers_of("bob")
    for context, field_name in [
        ({"search_max_iterations": "lots"}, "search_max_iterations"),
        ({"search_sources": ["bing"]}, "search_sources"),
        ({"run_budget_s": "soon"}, "run_budget_s"),
    ]:
        response = httpx.post(
            f"{tenants.url}/runs/wait",
            json={"assistant_id": "codeweaver", "input": ask(QUESTION), "context": context},
            headers=headers,
            timeout=60,
        )
        assert response.status_code == 422, response.text
        assert field_name in response.json()["detail"]
    # A plain meaning is taken: "no" turns the cache off, and the run answers.
    answered = httpx.post(
        f"{tenants.url}/runs/wait",
        json={
            "assistant_id": "codeweaver",
            "input": ask(QUESTION),
            "context": {"cache_enabled": "no", "search_max_iterations": "1"},
        },
        headers=headers,
        timeout=300,
    )
    assert answered.status_code == 200, answered.text
    assert answered.json()["messages"][-1]["type"] == "ai"
