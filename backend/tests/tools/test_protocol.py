"""The MCP server of CodeWeaver's tools, through a real client session in memory.

The tools are fakes that record what they were asked; what is tested is the protocol side:
exactly three tools, every argument checked before anything runs, results with Markdown text
and structured content, and failures told in one sentence.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from mcp import ClientSession
from mcp.shared.exceptions import McpError
from mcp.shared.memory import create_connected_server_and_client_session
from mcp.types import CallToolResult, TextContent

from codeweaver.tools.protocol import (
    MAX_QUESTION_CHARS,
    AskArgs,
    ListArgs,
    SearchArgs,
    ToolArgs,
    ToolOutput,
    build_server,
    parse_arguments,
)


@dataclass
class RecordingTools:
    """Answers every call with a fixed output and remembers the calls and their callers."""

    calls: list[tuple[ToolArgs, str | None]] = field(default_factory=list)
    fail: BaseException | None = None

    async def call(self, arguments: ToolArgs, identity: str | None) -> ToolOutput:
        self.calls.append((arguments, identity))
        if self.fail is not None:
            raise self.fail
        return ToolOutput(
            text="**Use `reversed`** [1]",
            structured={
                "answer": "**Use `reversed`** [1]",
                "citations": [
                    {
                        "n": 1,
                        "title": "reversed",
                        "url": "https://docs.python.org/3.11/library/functions.html#reversed",
                        "file": None,
                        "source": "local",
                        "pack": "python",
                        "version": "3.11",
                    }
                ],
                "declined": False,
                "decline_reason": None,
            },
        )


def text_of(result: CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


@asynccontextmanager
async def session_of(
    tools: RecordingTools, identity: str | None = None
) -> AsyncIterator[ClientSession]:
    server = build_server(tools, identity_of=lambda _: identity)
    async with create_connected_server_and_client_session(server) as session:
        yield session


async def test_the_server_offers_exactly_the_three_tools_with_schemas() -> None:
    async with session_of(RecordingTools()) as session:
        initialized = await session.initialize()
        listed = (await session.list_tools()).tools
    assert initialized.serverInfo.name == "codeweaver"
    assert initialized.instructions
    assert "never as instructions" in initialized.instructions
    assert [tool.name for tool in listed] == ["ask", "search_docs", "list_libraries"]
    by_name = {tool.name: tool for tool in listed}
    assert by_name["ask"].inputSchema["required"] == ["question"]
    assert set(by_name["ask"].inputSchema["properties"]) == {"question", "library", "version"}
    assert set(by_name["search_docs"].inputSchema["properties"]) == {
        "query",
        "library",
        "version",
        "limit",
    }
    assert by_name["list_libraries"].inputSchema["properties"] == {}
    for tool in listed:
        assert tool.inputSchema["additionalProperties"] is False
        assert tool.outputSchema is not None
        assert tool.annotations is not None
        assert tool.annotations.readOnlyHint
        assert tool.description
        assert len(tool.description) > 200


async def test_a_call_returns_markdown_text_and_structured_content_for_the_caller() -> None:
    tools = RecordingTools()
    async with session_of(tools, identity="alice") as session:
        await session.initialize()
        result = await session.call_tool("ask", {"question": " How do I reverse a list? "})
    assert not result.isError
    assert text_of(result) == "**Use `reversed`** [1]"
    assert result.structuredContent is not None
    assert result.structuredContent["citations"][0]["pack"] == "python"
    assert tools.calls == [(AskArgs("How do I reverse a list?"), "alice")]


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("ask", {}, "ask needs `question`"),
        ("ask", {"question": "   "}, "`question` is empty"),
        ("ask", {"question": 42}, "`question` must be a string, not a number"),
        ("ask", {"question": ["a"]}, "not an array"),
        ("ask", {"question": "x" * 1_048_576}, "is 1,048,576 characters long"),
        ("ask", {"question": "a\ud800b"}, "lone UTF-16 surrogate"),
        ("ask", {"question": "q", "library": 3}, "`library` must be a string"),
        ("ask", {"question": "q", "tenant": "bob"}, "does not take `tenant`"),
        ("search_docs", {"query": "q", "limit": 0}, "from 1 to 20, not 0"),
        ("search_docs", {"query": "q", "limit": "5"}, "whole number from 1 to 20"),
        ("search_docs", {"query": "q", "limit": True}, "whole number"),
        ("list_libraries", {"library": "python"}, "takes no arguments"),
    ],
)
async def test_unusable_arguments_come_back_as_a_tool_error_saying_what_to_send(
    name: str, arguments: dict[str, Any], says: str
) -> None:
    tools = RecordingTools()
    async with session_of(tools) as session:
        await session.initialize()
        result = await session.call_tool(name, arguments)
    assert result.isError
    text = text_of(result)
    assert text.startswith(f"Invalid arguments for {name}: ")
    assert says in text
    assert "Traceback" not in text
    assert tools.calls == [], "nothing runs on arguments that were refused"


async def test_an_unknown_tool_is_a_json_rpc_error_naming_the_tools() -> None:
    async with session_of(RecordingTools()) as session:
        await session.initialize()
        with pytest.raises(McpError) as raised:
            await session.call_tool("cache_store", {"question": "q"})
    assert raised.value.error.code == -32602
    assert "Unknown tool 'cache_store'" in raised.value.error.message
    assert "ask, search_docs, list_libraries" in raised.value.error.message


async def test_a_failing_tool_is_told_in_one_sentence_without_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tools = RecordingTools(fail=RuntimeError("the store at /secret/path is broken"))
    async with session_of(tools) as session:
        await session.initialize()
        result = await session.call_tool("list_libraries", {})
    assert result.isError
    text = text_of(result)
    assert text.startswith("CodeWeaver could not run list_libraries: RuntimeError.")
    assert "/secret/path" not in text
    assert "the store at /secret/path is broken" in caplog.text, "the server's log has it"


def test_arguments_are_parsed_into_their_tool_and_defaults() -> None:
    assert parse_arguments("search_docs", {"query": "sort", "library": None}) == SearchArgs("sort")
    assert parse_arguments("search_docs", {"query": "sort", "limit": 3.0}).limit == 3  # type: ignore[union-attr]
    assert parse_arguments("list_libraries", None) == ListArgs()
    assert parse_arguments("ask", {"question": "q", "version": " 3.12 "}) == AskArgs(
        "q", version="3.12"
    )
    assert len(parse_arguments("ask", {"question": "x" * MAX_QUESTION_CHARS}).question) == (  # type: ignore[union-attr]
        MAX_QUESTION_CHARS
    )
    with pytest.raises(KeyError):
        parse_arguments("codeweaver", {})
