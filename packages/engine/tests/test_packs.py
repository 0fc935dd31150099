"""A pack knows what it is, a hit knows its pack, and the packs in use are searched as one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codeweaver_engine.follow_up import follow_up_answer
from codeweaver_engine.packs import BUNDLED_PACK, DOCS_URL
from codeweaver_engine.packs.format import MANIFEST_FILE, Pack
from codeweaver_engine.packs.index import DocsIndex, IndexError_, read_index
from codeweaver_engine.packs.retrieval import PackSearch, evidence_of
from codeweaver_engine.packs.shelf import Shelf
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, Embedder, get_embedder
from codeweaver_schema import Citation


def _other_pack(index: DocsIndex, name: str, *, url: str | None) -> DocsIndex:
    """The bundled pack's units under another name: a second pack on the shelf."""
    pack = Pack(name, "1.0", "installed", name.title(), url, index.embedding_model)
    return DocsIndex(index.units, index.vectors, index.tasks, index.task_vectors, pack=pack)


def test_the_bundled_pack_says_what_it_is(index: DocsIndex) -> None:
    assert index.pack == Pack(
        name="python",
        version="3.11",
        source="bundled",
        title="Python",
        url=DOCS_URL,
        embedding_model=index.embedding_model,
    )
    [i] = index.positions("time.sleep")
    hit = index.hit(i, 0.9)
    assert hit.pack is index.pack
    assert hit.url == f"{DOCS_URL}library/time.html#time.sleep"


def test_a_manifest_that_does_not_say_which_pack_it_is_is_refused(tmp_path: Path) -> None:
    for source in BUNDLED_PACK.iterdir():
        shutil.copy(source, tmp_path / source.name)
    manifest = json.loads((tmp_path / MANIFEST_FILE).read_text(encoding="utf-8"))
    del manifest["source"]
    (tmp_path / MANIFEST_FILE).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(IndexError_, match="source"):
        read_index(tmp_path, verify=False)


def test_a_unit_of_a_pack_without_pages_online_has_no_address(index: DocsIndex) -> None:
    offline = _other_pack(index, "notes", url=None)
    [i] = offline.positions("time.sleep")
    evidence = evidence_of(offline.hit(i, 0.9))
    assert evidence.url is None
    assert evidence.title.startswith("Notes 1.0 docs: time.sleep")
    assert evidence.meta.file == "notes-docs-1.0/library/time.rst"  # type: ignore[union-attr]


async def test_the_packs_in_use_are_searched_together_and_each_hit_knows_its_pack(
    index: DocsIndex, embedder: Embedder
) -> None:
    other = _other_pack(index, "mirror", url="https://example.org/mirror/")
    shelf = Shelf([index, other])
    vector = (await embedder.embed(["make a time delay"]))[0]
    hits = shelf.search(vector, "make a time delay", k=4)
    assert [hit.unit.name for hit in hits[:2]] == ["time.sleep", "time.sleep"]
    assert {hit.pack.name for hit in hits[:2]} == {"python", "mirror"}
    assert all(
        shelf.index_of(hit) is (index if hit.pack.name == "python" else other) for hit in hits
    )
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    mirrored = shelf.by_url("https://example.org/mirror/library/time.html#time.sleep")
    assert mirrored is not None
    assert mirrored.pack.name == "mirror"


async def test_a_pack_search_over_two_packs_cites_both(index: DocsIndex) -> None:
    other = _other_pack(index, "mirror", url="https://example.org/mirror/")
    packs = PackSearch(
        lambda: get_embedder(DEFAULT_EMBEDDING_MODEL), packs=[lambda: index, lambda: other]
    )
    found = await packs.search("make a time delay", k=4)
    urls = [e.url for e in found if e.meta.api == "time.sleep"]  # type: ignore[union-attr]
    assert f"{DOCS_URL}library/time.html#time.sleep" in urls
    assert "https://example.org/mirror/library/time.html#time.sleep" in urls


def test_a_follow_up_reads_the_cited_unit_again_from_its_own_pack(index: DocsIndex) -> None:
    other = _other_pack(index, "mirror", url="https://example.org/mirror/")
    [i] = other.positions("time.sleep")
    citation = Citation.of(1, evidence_of(other.hit(i, 0.9)))
    text, used = follow_up_answer(
        "tell me more", "**Use `time.sleep`** [1]", [citation], "en", lambda: Shelf([index, other])
    )
    assert used == [citation]
    assert "[1]" in text
