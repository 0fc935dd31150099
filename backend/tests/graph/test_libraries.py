"""The main graph, offline, on a question about a library: its pack answers, or a decline says
what to do. Compiled afresh per test, with a pack written in the test."""

from __future__ import annotations

from pathlib import Path

from codeweaver.libraries import LibrariesFor
from codeweaver_engine.compose import Libraries
from codeweaver_engine.libraries import Environment
from codeweaver_engine.packs.catalog import catalog, packs_folder
from codeweaver_engine.packs.retrieval import PackSearch
from codeweaver_runtime import Embedder
from codeweaver_schema import Evidence
from codeweaver_search.sources import LocalCorpusSource
from codeweaver_testing.packs import api_unit, write_test_pack

from .conftest import MakeHarness

DROPNA = api_unit(
    "pandas.DataFrame.dropna",
    "pandas.DataFrame.dropna(*, axis=0, how='any', subset=None)",
    "Remove missing values.\n\nSee the User Guide for more on which values are considered "
    "missing, and how to work with missing data.",
    examples=[">>> df.dropna()\n     name        toy       born\n1  Batman  Batmobile 1940-04-25"],
    directive="method",
)
PYTHON = "/home/me/project/.venv/bin/python"


class NoDocuments:
    """The user has ingested no documents."""

    async def search(self, query: str, *, k: int = 8, neighbours: bool = True) -> list[Evidence]:
        return []


def _local(root: Path, embedder: Embedder) -> LocalCorpusSource:
    return LocalCorpusSource(
        NoDocuments, reference=PackSearch(lambda: embedder, installed=root), scope="test"
    )


def _libraries(root: Path, **installed: str) -> LibrariesFor:
    def libraries(model_id: str) -> Libraries:
        listed = catalog(root).listed(model_id)
        return Libraries(
            packs=[entry.pack for entry in listed],
            environment=lambda: Environment(python=PYTHON, versions=installed),
        )

    return libraries


async def test_a_library_question_is_answered_from_the_installed_pack(
    make_harness: MakeHarness, embedder: Embedder, tmp_path: Path
) -> None:
    root = packs_folder(tmp_path)
    write_test_pack(
        root,
        "pandas",
        "3.1.1",
        [DROPNA],
        embedder,
        tasks=[(["pandas.DataFrame.dropna"], ["drop rows with NaN values", "remove NaN values"])],
    )
    h = make_harness(source=_local(root, embedder), libraries=_libraries(root, pandas="3.1.1"))
    values, _, calls = await h.ask("How do I drop rows with NaN values in a pandas DataFrame?")
    answer = values["answer"]
    assert not answer.declined, answer.text
    assert "quoted from pandas 3.1.1, installed" in answer.text
    assert "**Use `pandas.DataFrame.dropna`**" in answer.text
    assert {(c.pack, c.version) for c in answer.citations} == {("pandas", "3.1.1")}
    assert answer.grounded
    assert calls == 0


async def test_a_library_without_a_pack_is_declined_with_the_command_that_reads_it(
    make_harness: MakeHarness, embedder: Embedder, tmp_path: Path
) -> None:
    root = packs_folder(tmp_path)
    write_test_pack(root, "pandas", "3.1.1", [DROPNA], embedder)
    h = make_harness(
        source=_local(root, embedder),
        libraries=_libraries(root, pandas="3.1.1", numpy="2.4.6"),
    )
    values, _, _ = await h.ask("numpy: how do I get the index of the max value in an array?")
    answer = values["answer"]
    assert answer.declined
    assert answer.decline_reason == "library_not_indexed"
    assert f"`codeweaver ingest --python {PYTHON} --packages numpy`" in answer.text
    assert "pandas.DataFrame.dropna" not in answer.text
    assert answer.citations == []
