"""Installed packs: built in the bundled index's format, searchable, rebuilt only when needed."""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from codeweaver_corpus.packs.build import REPORT_FILE, build_packs, pack_embedding_text
from codeweaver_corpus.packs.environment import TargetEnvironment, choose, probe
from codeweaver_corpus.packs.store import list_packs, model_slug, pack_folder, packs_root
from codeweaver_engine.packs.index import read_index
from codeweaver_engine.packs.units import DocUnit
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder
from codeweaver_testing import HashEmbedder
from tests.packs_env import Environment, make_environment

TASKS = """\
# Tasks of tinylib, for tests.
= tinylib.Table.dropna
drop rows with missing values
= tinylib.Table.pivot, tinylib.mean
average of a list of numbers
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_environment(tmp_path_factory.mktemp("venv"))


@pytest.fixture(scope="module")
def target(env: Environment) -> TargetEnvironment:
    return probe(env.python)


@pytest.fixture
def tasks_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "tinylib.txt").write_text(TASKS, encoding="utf-8")
    return folder


def build(
    target: TargetEnvironment,
    home: Path,
    tasks_dir: Path,
    names: list[str],
    *,
    embedded: list[str] | None = None,
    **options: object,
) -> dict[str, object]:
    """Build packs with the hash embedder; the texts it embeds are added to `embedded`."""
    embedder = HashEmbedder()

    def embed(texts: Sequence[str]) -> Any:
        if embedded is not None:
            embedded.extend(texts)
        return embedder.embed_sync(texts)

    report = build_packs(
        target,
        choose(target, names),
        home=home,
        embed=embed,
        model_id=embedder.model_id,
        dimension=embedder.dimension,
        tasks_dir=tasks_dir,
        **{"module_seconds": 1, **options},  # type: ignore[arg-type]
    )
    return {result.name: result for result in report.results}


def test_a_pack_has_the_bundled_format_and_says_what_it_is(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    results = build(target, tmp_path, tasks_dir, ["tinylib"])
    folder = pack_folder(tmp_path, "tinylib", "1.2.0", "hash-256")
    assert folder == tmp_path / "packs" / "tinylib-1.2.0-hash-256"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert {k: manifest[k] for k in ("name", "version", "source", "import_names")} == {
        "name": "tinylib",
        "version": "1.2.0",
        "source": "installed",
        "import_names": ["tinylib"],
    }
    assert manifest["interpreter"]["path"] == str(target.python)
    assert manifest["interpreter"]["python_version"] == target.version
    assert manifest["embedding_model"] == "hash-256"
    assert manifest["built_at"].endswith("+00:00")
    assert manifest["units"] == results["tinylib"].units == 30  # type: ignore[attr-defined]
    assert (manifest["tasks"], manifest["phrases"]) == (2, 2)
    assert manifest["missing_targets"] == ["tinylib.Table.pivot"]
    assert "tinylib.slow: inspection: timed out (1 s)" in manifest["failures"]
    index = read_index(folder)
    assert len(index) == 30
    assert index.tasks == [
        {"targets": ["tinylib.Table.dropna"], "phrases": ["drop rows with missing values"]},
        {"targets": ["tinylib.mean"], "phrases": ["average of a list of numbers"]},
    ]


def test_search_over_a_pack_finds_the_api_a_task_phrasing_asks_for(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    build_packs(
        target,
        choose(target, ["tinylib"]),
        home=tmp_path,
        embed=embedder.embed_sync,
        model_id=embedder.model_id,
        dimension=embedder.dimension,
        tasks_dir=tasks_dir,
        module_seconds=1,
    )
    index = read_index(pack_folder(tmp_path, "tinylib", "1.2.0", embedder.model_id))
    question = "How do I remove the rows that have missing values from my table?"
    hits = index.search(embedder.embed_sync([question])[0], question, k=3)
    assert hits[0].unit.name == "tinylib.Table.dropna"
    assert hits[0].via_task == "drop rows with missing values"
    question = "mean of some numbers"
    hits = index.search(embedder.embed_sync([question])[0], question, k=3)
    assert hits[0].unit.name == "tinylib.mean"


def test_ingesting_again_rebuilds_only_what_changed(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    build(target, tmp_path, tasks_dir, ["tinylib", "tinyg"])
    folder = pack_folder(tmp_path, "tinylib", "1.2.0", "hash-256")
    before = (folder / "manifest.json").stat().st_mtime_ns
    again = build(target, tmp_path, tasks_dir, ["tinylib", "tinyg"])
    assert {name: r.status for name, r in again.items()} == {  # type: ignore[attr-defined]
        "tinylib": "unchanged",
        "tiny-google": "unchanged",
    }
    assert again["tinylib"].units == 30  # type: ignore[attr-defined]
    assert (folder / "manifest.json").stat().st_mtime_ns == before
    # The task file changed: that library's pack is rebuilt, the other kept.
    (tasks_dir / "tinylib.txt").write_text(TASKS + "= tinylib.clip\nclamp a number\n")
    changed = build(target, tmp_path, tasks_dir, ["tinylib", "tinyg"])
    assert changed["tinylib"].status == "built"  # type: ignore[attr-defined]
    assert changed["tiny-google"].status == "unchanged"  # type: ignore[attr-defined]
    assert read_index(folder).tasks[-1] == {
        "targets": ["tinylib.clip"],
        "phrases": ["clamp a number"],
    }
    forced = build(target, tmp_path, tasks_dir, ["tinyg"], force=True)
    assert forced["tiny-google"].status == "built"  # type: ignore[attr-defined]


def test_a_rebuild_embeds_only_the_texts_no_earlier_build_embedded(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    first: list[str] = []
    build(target, tmp_path, tasks_dir, ["tinylib"], embedded=first)
    folder = pack_folder(tmp_path, "tinylib", "1.2.0", "hash-256")
    original = read_index(folder)
    assert len(first) == len(original.units) + len(original.phrases)
    # Forced (as after CodeWeaver's reader changed): nothing is embedded again, same vectors.
    forced: list[str] = []
    result = build(target, tmp_path, tasks_dir, ["tinylib"], embedded=forced, force=True)
    assert forced == []
    assert result["tinylib"].reused == len(first)  # type: ignore[attr-defined]
    rebuilt = read_index(folder)
    assert np.array_equal(rebuilt.vectors, original.vectors)
    assert np.array_equal(rebuilt.task_vectors, original.task_vectors)
    # A new task phrasing: that one alone.
    (tasks_dir / "tinylib.txt").write_text(TASKS + "= tinylib.clip\nclamp a number\n")
    added: list[str] = []
    build(target, tmp_path, tasks_dir, ["tinylib"], embedded=added)
    assert added == ["clamp a number"]
    # An upgrade whose docstrings did not change embeds nothing either.
    upgraded = dataclasses.replace(target.distributions["tinylib"], version="1.3.0")
    newer = dataclasses.replace(target, distributions={"tinylib": upgraded})
    upgrade: list[str] = []
    build(newer, tmp_path, tasks_dir, ["tinylib"], embedded=upgrade)
    assert upgrade == []
    assert pack_folder(tmp_path, "tinylib", "1.3.0", "hash-256").is_dir()


def test_a_damaged_record_of_embedded_texts_is_not_trusted(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    build(target, tmp_path, tasks_dir, ["tinylib"])
    folder = pack_folder(tmp_path, "tinylib", "1.2.0", "hash-256")
    record = folder / "embedded.json.gz"
    texts = json.loads(gzip.decompress(record.read_bytes()))
    # Texts paired with the wrong vectors would answer with the wrong API: all are embedded anew.
    texts["units"].reverse()
    record.write_bytes(gzip.compress(json.dumps(texts).encode()))
    again: list[str] = []
    build(target, tmp_path, tasks_dir, ["tinylib"], embedded=again, force=True)
    index = read_index(folder)
    assert len(again) == len(index.units) + len(index.phrases)


def test_an_upgrade_replaces_the_old_version_of_that_interpreter(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    build(target, tmp_path, tasks_dir, ["tinysphinx"])
    old = pack_folder(tmp_path, "tinysphinx", "2.0", "hash-256")
    upgraded = dataclasses.replace(target.distributions["tinysphinx"], version="2.1")
    newer = dataclasses.replace(target, distributions={"tinysphinx": upgraded})
    build(newer, tmp_path, tasks_dir, ["tinysphinx"])
    assert pack_folder(tmp_path, "tinysphinx", "2.1", "hash-256").is_dir()
    assert not old.exists()


def test_a_library_that_fails_is_recorded_and_the_others_are_built(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    # tinylib.slow hangs longer than the worker may run: tinylib fails, alone.
    results = build(
        target,
        tmp_path,
        tasks_dir,
        ["tinylib", "tinysphinx"],
        worker_seconds=3,
        module_seconds=300,
    )
    assert results["tinylib"].status == "failed"  # type: ignore[attr-defined]
    assert results["tinylib"].reason == "timed out after 3 s"  # type: ignore[attr-defined]
    assert results["tinysphinx"].status == "built"  # type: ignore[attr-defined]
    report = json.loads((packs_root(tmp_path) / REPORT_FILE).read_text(encoding="utf-8"))
    assert [(r["name"], r["status"], r["reason"]) for r in report["results"]] == [
        ("tinylib", "failed", "timed out after 3 s"),
        ("tinysphinx", "built", ""),
    ]
    assert not pack_folder(tmp_path, "tinylib", "1.2.0", "hash-256").exists()


def test_leftovers_of_an_interrupted_build_are_removed(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    leftover = packs_root(tmp_path) / ".building-tinysphinx-2.0-hash-256-x1y2"
    leftover.mkdir(parents=True)
    (leftover / "units.jsonl.gz").write_bytes(b"half")
    build(target, tmp_path, tasks_dir, ["tinysphinx"])
    assert not leftover.exists()
    assert [p.name for p in packs_root(tmp_path).iterdir() if p.is_dir()] == [
        "tinysphinx-2.0-hash-256"
    ]


def test_packs_are_listed_with_the_bundled_one_first(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    build(target, tmp_path, tasks_dir, ["tinyg", "tinysphinx"])
    listed = [(p.name, p.version, p.source, p.units) for p in list_packs(tmp_path)]
    assert listed[0][:3] == ("python", "3.11", "bundled")
    assert listed[0][3] > 10_000
    assert listed[1:] == [
        ("tiny-google", "0.3.0", "installed", 4),
        ("tinysphinx", "2.0", "installed", 2),
    ]


def test_a_units_vector_encodes_its_name_and_first_sentence_not_its_parameter_list() -> None:
    unit = DocUnit(
        kind="api",
        doc="tinylib",
        doc_title="tinylib",
        section="tinylib.Table",
        anchor="tinylib.Table.dropna",
        name="tinylib.Table.dropna",
        text="Remove rows with missing values. Rows where any value is missing go first."
        "\n\n**Parameters**\n\n- `axis`: Rows or columns.",
    )
    assert pack_embedding_text(unit) == "tinylib.Table.dropna: Remove rows with missing values."


def test_model_ids_become_folder_names() -> None:
    assert model_slug("all-MiniLM-L6-v2@st6") == "all-minilm-l6-v2-st6"
    assert model_slug("BAAI/bge-m3") == "baai-bge-m3"


def test_libraries_read_side_by_side_give_the_packs_read_one_by_one(
    target: TargetEnvironment, tmp_path: Path, tasks_dir: Path
) -> None:
    names = ["tinylib", "tinyg", "tinysphinx"]
    alone = build(target, tmp_path / "alone", tasks_dir, names, jobs=1)
    together = build(target, tmp_path / "together", tasks_dir, names, jobs=3)
    assert list(together) == list(alone)
    assert {n: (r.status, r.units) for n, r in together.items()} == {  # type: ignore[attr-defined]
        n: (r.status, r.units)  # type: ignore[attr-defined]
        for n, r in alone.items()
    }
    for name, result in alone.items():
        version = result.version  # type: ignore[attr-defined]
        one = read_index(pack_folder(tmp_path / "alone", name, version, "hash-256"))
        other = read_index(pack_folder(tmp_path / "together", name, version, "hash-256"))
        assert [u.name for u in other.units] == [u.name for u in one.units]
