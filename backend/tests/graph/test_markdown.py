"""Real answers of the main graph, rendered as chat messages, read by a CommonMark parser.

Each message is what agent-chat-ui, Studio or any Markdown client receives: the sources must be
a list with one item per citation, links only http(s), and no raw HTML, whatever the retrieved
titles hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from langgraph.checkpoint.memory import InMemorySaver

from codeweaver.context import Context
from codeweaver.persistence import schema_serializer
from codeweaver.workflows.orchestration.graph import build_main_graph
from codeweaver_cache import SemanticCache
from codeweaver_runtime import Embedder, StaticChatModels, open_qdrant
from codeweaver_schema import Evidence, Intent, LocalMeta
from tests.commonmark import check_rendered

from .conftest import DOCS, Harness, KeywordSource, MakeHarness
from .test_with_models import QUESTION, scripted

HOSTILE_TITLE = "Mapping Types — dict <script>alert(1)</script> [x](javascript:alert(1)) **now**"


@dataclass
class WebPagesSource(KeywordSource):
    """The same documents, published on the web: each has an address, cited as a link."""

    async def search(
        self, query: str, *, intent: Intent, language: str, limit: int
    ) -> list[Evidence]:
        found = await super().search(query, intent=intent, language=language, limit=limit)
        return [
            e.model_copy(update={"url": f"https://docs.example.org/{e.meta.doc_id}.html"})
            for e in found
            if isinstance(e.meta, LocalMeta)
        ]


def _web_harness(embedder: Embedder) -> Harness:
    docs = dict(DOCS)
    docs["dict"] = (HOSTILE_TITLE, DOCS["dict"][1])
    source = WebPagesSource(docs=docs)
    cache = SemanticCache(open_qdrant(":memory:"), embedder)
    graph = build_main_graph(
        models=StaticChatModels(None),
        embedder=embedder,
        sources={"local": source},
        cache=cache,
        checkpointer=InMemorySaver(serde=schema_serializer()),
    )
    context = Context(search_sources=["local"], chat_model="offline")
    return Harness(graph, source, cache, context)


def _delivered(values: dict) -> str:  # type: ignore[type-arg]
    content = values["messages"][-1].content
    assert isinstance(content, str)
    return content


async def test_an_api_answer_with_web_sources_renders_as_a_list(embedder: Embedder) -> None:
    h = _web_harness(embedder)
    values, _, _ = await h.ask("How do I sort a dictionary by value?")
    answer = values["answer"]
    assert answer.citations, answer.text
    assert not answer.declined
    assert "sorted(d.items()" in answer.text, "an answer that shows the API in use"
    section = check_rendered(answer, _delivered(values))
    assert section is not None
    assert all(links and links[0].startswith("https://") for links in section.item_links)
    hostile = [item for item in section.items if "<script>" in item]
    assert hostile, "the hostile title is cited, and reads as plain text"


async def test_a_model_answer_renders_as_a_list(make_harness: MakeHarness) -> None:
    model = scripted("Call `lst.reverse()`: it reverses the list in place [1].")
    h = make_harness(models=StaticChatModels(model), search_max_iterations=1)
    values, _, _ = await h.ask(QUESTION)
    answer = values["answer"]
    assert not answer.offline
    assert answer.citations
    section = check_rendered(answer, _delivered(values))
    assert section is not None
    assert section.items[0].startswith("[1] ")


async def test_a_local_answer_and_its_follow_up_render_as_lists(
    make_harness: MakeHarness,
) -> None:
    h = make_harness()
    first, _, _ = await h.ask(QUESTION)
    check_rendered(first["answer"], _delivered(first))
    values, _, _ = await h.ask("Can you show an example of that?")
    section = check_rendered(values["answer"], _delivered(values))
    assert section is not None
    assert section.item_links == [[]] * len(section.items)


async def test_a_decline_renders_without_a_sources_list(make_harness: MakeHarness) -> None:
    h = make_harness()
    values, _, _ = await h.ask(
        "How do I undo the last <b>commit</b> in git but keep my changes? [x](javascript:alert(1))"
    )
    assert values["answer"].declined
    assert "Title:" in values["answer"].text, "the decline echoes the question in a draft"
    check_rendered(values["answer"], _delivered(values))
    too_many, _, _ = await h.ask("What is a list? What is a tuple? What is a set?")
    assert check_rendered(too_many["answer"], _delivered(too_many)) is None


async def test_a_two_question_answer_has_one_sources_list(embedder: Embedder) -> None:
    h = _web_harness(embedder)
    values, _, _ = await h.ask(
        "How do I reverse a list in Python? How do I sort a dictionary by value?"
    )
    assert values["routing"].route == "multi"
    answer = values["answer"]
    section = check_rendered(answer, _delivered(values))
    assert section is not None
    assert len(section.items) == len(answer.citations) >= 2
