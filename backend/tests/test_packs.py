"""The packs the agents' tools search: the bundled Python documentation and ingested documents."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from codeweaver.packs import (
    DOCUMENTS_PACK,
    PYTHON_PACK,
    LocalPacks,
    PackError,
    PackInfo,
    find_pack,
    pack_of,
)
from codeweaver_corpus.packs.store import pack_folder, write_pack
from codeweaver_engine.packs.format import embedding_text
from codeweaver_engine.packs.index import DocsIndex
from codeweaver_engine.packs.retrieval import PackSearch
from codeweaver_engine.packs.units import DocUnit
from codeweaver_runtime import Embedder, Infrastructure
from codeweaver_schema import Evidence, LocalMeta, stable_id


@dataclass
class FakeStore:
    """A tenant's ingested documents: a fixed list of chunks, or a store that fails."""

    chunks: list[Evidence] = field(default_factory=list)
    broken: bool = False
    queries: list[str] = field(default_factory=list)

    async def count(self) -> int:
        if self.broken:
            raise RuntimeError("Storage folder is already accessed by another instance")
        return len(self.chunks)

    async def search(self, query: str, *, k: int = 8, neighbours: bool = True) -> list[Evidence]:
        self.queries.append(query)
        if self.broken:
            raise RuntimeError("Storage folder is already accessed by another instance")
        return self.chunks[:k]


def chunk(text: str, score: float = 0.9) -> Evidence:
    return Evidence(
        id=stable_id("local", "notes.md", "0"),
        source="local",
        title="Team notes — Deploying",
        content=text,
        score=score,
        meta=LocalMeta(doc_id="notes.md", file="/home/me/notes.md", section="Deploying"),
    )


@pytest.fixture
def reference(index: DocsIndex, embedder: Embedder) -> PackSearch:
    return PackSearch(lambda: embedder, packs=[lambda: index])


def packs(reference: PackSearch, store: FakeStore, tenant: str = "alice") -> LocalPacks:
    return LocalPacks(tenant, reference=reference, corpus=lambda: store)


async def test_the_python_documentation_is_listed_with_its_version_and_size(
    reference: PackSearch, index: DocsIndex
) -> None:
    listed = await packs(reference, FakeStore()).available()
    assert listed == [
        PackInfo(
            name="python",
            version="3.11",
            source="bundled",
            title=listed[0].title,
            units=len(index),
            url="https://docs.python.org/3.11/",
        )
    ]


async def test_ingested_documents_are_listed_when_there_are_some_or_when_unreadable(
    reference: PackSearch,
) -> None:
    some = await packs(reference, FakeStore([chunk("Run make deploy.")])).available()
    assert [(p.name, p.source, p.units, p.version) for p in some][1] == (
        DOCUMENTS_PACK,
        "ingested",
        1,
        None,
    )
    locked = await packs(reference, FakeStore(broken=True)).available()
    assert locked[1].name == DOCUMENTS_PACK
    assert locked[1].note
    assert "could not be read now" in locked[1].note


async def test_a_search_returns_api_entries_with_signature_summary_and_address(
    reference: PackSearch,
) -> None:
    found = await packs(reference, FakeStore()).search(
        "get the size of a file in bytes", library=None, limit=3
    )
    entry = next(r for r in found if r.name == "os.path.getsize")
    assert entry.kind == "api"
    assert entry.signatures == ["os.path.getsize(path)"]
    assert entry.summary.startswith("Return the size, in bytes, of")
    assert entry.url == "https://docs.python.org/3.11/library/os.path.html#os.path.getsize"
    assert entry.file == "python-docs-3.11/library/os.path.rst"
    assert (entry.pack, entry.version) == (PYTHON_PACK, "3.11")


async def test_a_library_restricts_the_search_to_its_pack(reference: PackSearch) -> None:
    store = FakeStore([chunk("To deploy, run make deploy from the repository root.")])
    only_documents = await packs(reference, store).search("deploy", library="Documents", limit=5)
    assert [(r.kind, r.pack, r.file) for r in only_documents] == [
        ("chunk", DOCUMENTS_PACK, "/home/me/notes.md")
    ]
    only_python = await packs(reference, store).search("deploy", library="python", limit=5)
    assert only_python
    assert {r.pack for r in only_python} == {PYTHON_PACK}
    assert store.queries == ["deploy"], "the ingested documents were asked once, for the first"
    with pytest.raises(PackError, match="no pack named 'pandas'"):
        await packs(reference, store).search("dropna", library="pandas", limit=5)


async def test_a_store_that_fails_leaves_the_documentation_results(
    reference: PackSearch,
) -> None:
    found = await packs(reference, FakeStore(broken=True)).search(
        "reverse a list", library=None, limit=3
    )
    assert found
    assert {r.pack for r in found} == {PYTHON_PACK}
    with pytest.raises(PackError, match="could not be searched"):
        await packs(reference, FakeStore(broken=True)).search(
            "reverse a list", library="documents", limit=3
        )


def test_packs_are_found_by_name_whatever_the_case_and_separator() -> None:
    listed = [PackInfo("scikit-learn", "1.5", "installed", "scikit-learn", 10)]
    assert find_pack(listed, "Scikit_Learn") is listed[0]
    assert find_pack(listed, "sklearn") is None


def test_a_citation_tells_its_pack_from_its_file_or_address() -> None:
    assert pack_of("python-docs-3.11/library/os.rst", None) == ("python", "3.11")
    assert pack_of(None, "https://docs.python.org/3.11/library/os.html#os.stat") == (
        "python",
        "3.11",
    )
    assert pack_of("/home/me/notes.md", None) == ("documents", None)
    assert pack_of(None, "https://stackoverflow.com/q/1") == (None, None)


TINYLIB_UNITS = [
    DocUnit(
        kind="api",
        doc="tinylib",
        doc_title="tinylib",
        section="tinylib",
        anchor="tinylib.Table.dropna",
        name="tinylib.Table.dropna",
        directive="method",
        signatures=["tinylib.Table.dropna(how='any')"],
        text="Remove the rows that hold missing values.",
        module="tinylib",
    ),
    DocUnit(
        kind="api",
        doc="tinylib",
        doc_title="tinylib",
        section="tinylib",
        anchor="tinylib.mean",
        name="tinylib.mean",
        directive="function",
        signatures=["tinylib.mean(values)"],
        text="Return the arithmetic mean of a list of numbers.",
        module="tinylib",
    ),
]


def install_tinylib(home: Path, embedder: Embedder, *, model: str | None = None) -> Path:
    """An installed library's pack, as `codeweaver ingest --python` writes one."""
    model_id = model or embedder.model_id
    folder = pack_folder(home, "tinylib", "1.2.0", model_id)
    vectors = embedder.embed_sync([embedding_text(u) for u in TINYLIB_UNITS])
    manifest = {
        "name": "tinylib",
        "version": "1.2.0",
        "source": "installed",
        "title": "tinylib",
        "embedding_model": model_id,
    }
    write_pack(folder, TINYLIB_UNITS, [], vectors, np.zeros((0, vectors.shape[1])), manifest)
    return folder


def with_home(reference: PackSearch, home: Path, embedder: Embedder) -> LocalPacks:
    # The default embedding model: the one `embedder` is.
    infra = Infrastructure(data_dir=home)
    return LocalPacks("alice", reference=reference, corpus=FakeStore, infrastructure=infra)


async def test_installed_library_packs_are_listed_and_searched_alone_or_with_the_rest(
    reference: PackSearch, embedder: Embedder, tmp_path: Path
) -> None:
    install_tinylib(tmp_path, embedder)
    packs = with_home(reference, tmp_path, embedder)
    listed = {p.name: p for p in await packs.available()}
    assert (listed["tinylib"].version, listed["tinylib"].source) == ("1.2.0", "installed")
    assert listed["tinylib"].units == 2
    assert listed["tinylib"].note is None
    only = await packs.search("drop rows with missing values", library="TinyLib", limit=3)
    assert only[0].name == "tinylib.Table.dropna"
    assert {(r.pack, r.version) for r in only} == {("tinylib", "1.2.0")}
    assert only[0].file == "tinylib-docs-1.2.0/tinylib.rst"
    assert only[0].url is None
    everywhere = await packs.search("mean of a list of numbers", library=None, limit=5)
    assert {"python", "tinylib"} <= {r.pack for r in everywhere}
    assert pack_of(only[0].file, None) == ("tinylib", "1.2.0")


async def test_a_pack_of_another_embedding_model_is_listed_with_what_to_do_not_searched(
    reference: PackSearch, embedder: Embedder, tmp_path: Path
) -> None:
    install_tinylib(tmp_path, embedder, model="another-model")
    packs = with_home(reference, tmp_path, embedder)
    [tinylib] = [p for p in await packs.available() if p.name == "tinylib"]
    assert tinylib.note is not None
    assert "codeweaver ingest --python PATH --packages tinylib" in tinylib.note
    with pytest.raises(PackError, match="no pack named 'tinylib'"):
        await packs.search("mean", library="tinylib", limit=3)
