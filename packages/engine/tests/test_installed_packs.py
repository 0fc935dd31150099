"""Installed packs are searched with the bundled one, and picked up while the searcher runs."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from codeweaver_engine.language.words import words
from codeweaver_engine.libraries import unnamed_phrase
from codeweaver_engine.packs.catalog import Catalog, packs_folder
from codeweaver_engine.packs.format import MANIFEST_FILE, UNITS_FILE, Pack
from codeweaver_engine.packs.index import DocsIndex, unfamiliar_units
from codeweaver_engine.packs.retrieval import PackSearch, evidence_of
from codeweaver_engine.stamp import answers_version
from codeweaver_runtime.embeddings import Vectors
from codeweaver_schema import Citation, Evidence, LocalMeta
from codeweaver_testing import HashEmbedder
from codeweaver_testing.packs import api_unit, write_test_pack

DROPNA = api_unit(
    "pandas.DataFrame.dropna",
    "DataFrame.dropna(*, axis=0, how=<no_default>, subset=None, inplace=False)",
    "Remove missing values. See the User Guide for more on which values are considered missing.",
    examples=[">>> df.dropna()\n     name        toy       born\n1  Batman  Batmobile 1940-04-25"],
    directive="method",
)
ARGMAX = api_unit(
    "numpy.argmax",
    "numpy.argmax(a, axis=None, out=None, *, keepdims=<no value>)",
    "Returns the indices of the maximum values along an axis.",
    examples=[">>> a = np.arange(6).reshape(2,3) + 10\n>>> np.argmax(a)\n5"],
)
EMBEDDER = HashEmbedder()


def _search(root: Path) -> PackSearch:
    return PackSearch(lambda: EMBEDDER, packs=[], installed=root)


def _names(found: list[Evidence]) -> list[str | None]:
    return [e.meta.api for e in found if isinstance(e.meta, LocalMeta)]


async def test_a_pack_ingested_while_the_searcher_runs_is_searched_from_the_next_question(
    tmp_path: Path,
) -> None:
    root = packs_folder(tmp_path)
    search = _search(root)
    assert await search.search("remove missing values", k=3) == [], "no pack yet"
    write_test_pack(root, "pandas", "3.1.1", [DROPNA], EMBEDDER)
    found = await search.search("remove missing values", k=3)
    assert _names(found) == ["pandas.DataFrame.dropna"]
    write_test_pack(root, "numpy", "2.4.6", [ARGMAX], EMBEDDER)
    assert set(_names(await search.search("indices of the maximum values", k=3))) == {
        "numpy.argmax",
        "pandas.DataFrame.dropna",
    }
    shutil.rmtree(next(root.glob("pandas-*")))
    assert _names(await search.search("remove missing values", k=3)) == ["numpy.argmax"]


async def test_each_unit_found_says_which_pack_and_version_it_quotes(tmp_path: Path) -> None:
    root = packs_folder(tmp_path)
    write_test_pack(root, "pandas", "3.1.1", [DROPNA], EMBEDDER)
    [evidence] = await _search(root).search("remove missing values", k=1)
    assert isinstance(evidence.meta, LocalMeta)
    assert (evidence.meta.pack, evidence.meta.version) == ("pandas", "3.1.1")
    assert evidence.title.startswith("pandas 3.1.1 docs: pandas.DataFrame.dropna")
    assert evidence.url is None, "an installed library's docstrings have no page online"
    citation = Citation.of(1, evidence)
    assert (citation.pack, citation.version) == ("pandas", "3.1.1")


def test_the_bundled_pack_is_cited_as_python_at_its_version(index: DocsIndex) -> None:
    [i] = index.positions("time.sleep")
    citation = Citation.of(1, evidence_of(index.hit(i, 0.9)))
    assert (citation.pack, citation.version) == ("python", "3.11")


async def test_a_search_can_be_kept_to_some_packs(tmp_path: Path) -> None:
    root = packs_folder(tmp_path)
    write_test_pack(root, "pandas", "3.1.1", [DROPNA], EMBEDDER)
    write_test_pack(root, "numpy", "2.4.6", [ARGMAX], EMBEDDER)
    found = await _search(root).search("remove missing values", k=3, packs={"numpy"})
    assert _names(found) == ["numpy.argmax"]


async def test_packs_of_another_embedding_model_are_not_searched(tmp_path: Path) -> None:
    root = packs_folder(tmp_path)
    folder = write_test_pack(root, "pandas", "3.1.1", [DROPNA], EMBEDDER)
    manifest = (folder / MANIFEST_FILE).read_text(encoding="utf-8")
    (folder / MANIFEST_FILE).write_text(manifest.replace("hash-256", "bge-m3"), encoding="utf-8")
    assert await _search(root).search("remove missing values", k=3) == []


async def test_a_damaged_pack_is_left_out_and_the_others_are_searched(tmp_path: Path) -> None:
    root = packs_folder(tmp_path)
    damaged = write_test_pack(root, "pandas", "3.1.1", [DROPNA], EMBEDDER)
    write_test_pack(root, "numpy", "2.4.6", [ARGMAX], EMBEDDER)
    (damaged / UNITS_FILE).write_bytes(b"not a pack")
    search = _search(root)
    assert _names(await search.search("remove missing values", k=3)) == ["numpy.argmax"]
    assert list(search.failures) == [str(damaged)]
    assert "damaged" in search.failures[str(damaged)]


def test_the_catalog_stamp_changes_when_a_pack_is_added_rebuilt_or_removed(
    tmp_path: Path,
) -> None:
    root = packs_folder(tmp_path)
    catalog = Catalog(root)
    assert catalog.stamp() == "none"
    folder = write_test_pack(root, "pandas", "3.1.1", [DROPNA], EMBEDDER)
    added = catalog.stamp()
    assert added != "none"
    assert catalog.stamp() == added, "nothing changed"
    assert catalog.stamp("another-model") == "none"
    # A rebuild puts a new folder in place (a rename in the packs folder): another pack.
    rebuilt = root / ".building"
    shutil.copytree(folder, rebuilt)
    manifest = rebuilt / MANIFEST_FILE
    stat = manifest.stat()
    os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    shutil.rmtree(folder)
    rebuilt.rename(folder)
    assert catalog.stamp() not in ("none", added)
    shutil.rmtree(folder)
    assert catalog.stamp() == "none"


def test_answers_of_one_set_of_packs_are_not_those_of_another(tmp_path: Path) -> None:
    without = answers_version(tmp_path)
    write_test_pack(packs_folder(tmp_path), "pandas", "3.1.1", [DROPNA], EMBEDDER)
    with_pandas = answers_version(tmp_path)
    assert with_pandas != without
    assert with_pandas.startswith(without + "-packs-")
    assert answers_version(tmp_path / "elsewhere") == without


def test_a_library_s_internals_that_no_task_names_rank_lower() -> None:
    units = [
        DROPNA,
        api_unit("pandas.DataFrame.fillna", "fillna(value)", "Fill NA/NaN values."),
        api_unit("pandas.core.tools.parsing.parse", "parse(s)", "Parse dates internally."),
    ]
    tasks = [{"targets": ["pandas.DataFrame.dropna"], "phrases": ["drop rows with nan"]}]
    pandas = Pack("pandas", "3.1.1", "installed", "pandas", None, "test", ("pandas",))
    assert unfamiliar_units(units, tasks, pandas).tolist() == [0.0, 0.0, 1.0]
    # The bundled documentation is all public; a pack without tasks tells nothing apart.
    assert unfamiliar_units(units, tasks, replace(pandas, source="bundled")).tolist() == [0.0] * 3
    assert unfamiliar_units(units, [], pandas).tolist() == [0.0] * 3


def test_a_library_s_phrasings_are_read_without_its_names() -> None:
    requests = Pack("requests", "2.34.2", "installed", "requests", None, "test", ("requests",))
    assert unnamed_phrase("requests send cookies with a request", requests) == (
        "send cookies with a request"
    )
    assert unnamed_phrase("python requests post json", requests) == "python post json"
    # Another library's names, and the bundled documentation's phrasings, stay as they are.
    assert unnamed_phrase("pandas read json", requests) == "pandas read json"
    python = Pack("python", "3.11", "bundled", "Python", None, "test")
    assert unnamed_phrase("send a request with requests", python) == "send a request with requests"


class _NameHeavyEmbedder(HashEmbedder):
    """Bag of words in which a library's name weighs as much as four other words.

    A small model weighs a name heavily too: "pandas" alone moves a phrasing far.
    """

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in words(text):
                slot = int(hashlib.md5(word.encode()).hexdigest()[:8], 16) % self.dimension
                out[row, slot] += 4.0 if word == "requests" else 1.0
            out[row] /= np.linalg.norm(out[row]) or 1.0
        return out


async def test_a_phrasing_does_not_lose_to_another_for_naming_the_library(tmp_path: Path) -> None:
    # The question is searched without "requests"; so are the phrasings. Compared with its
    # name, "requests send cookies" would read far from it, and "send cookies in a session
    # jar" closer.
    embedder = _NameHeavyEmbedder()
    jar = api_unit("requests.cookies.RequestsCookieJar", "RequestsCookieJar()", "A cookie jar.")
    post = api_unit("requests.post", "post(url, data=None, json=None, **kwargs)", "Sends a POST.")
    root = packs_folder(tmp_path)
    write_test_pack(
        root,
        "requests",
        "2.34.2",
        [jar, post],
        embedder,
        tasks=[
            (["requests.post"], ["requests send cookies"]),
            (["requests.cookies.RequestsCookieJar"], ["send cookies in a session jar"]),
        ],
    )
    search = PackSearch(lambda: embedder, packs=[], installed=root)
    found = await search.search("How do I send cookies in python requests", k=2)
    assert _names(found)[0] == "requests.post"
