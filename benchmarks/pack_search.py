"""Does a library's pack of ~5,000 units answer a question as fast as the Python pack does?

    uv run python benchmarks/pack_search.py                      # a synthetic 5,000-unit pack
    uv run python benchmarks/pack_search.py --home DIR --pack Django [--questions FILE]

Times the offline engine's part of an answer, once everything is loaded (in one process, as a
server runs): the search of the packs (`PackSearch.search_hits`: the question's vector, the
matrix products over units and task phrasings, the ranking) and the composition of the answer
(`extractive_answer`: sentences and examples ranked by meaning). Each question is asked of the
Python pack alone (a standard-library question) and of the library's pack alone (the same
question naming the library), and the median, 90th percentile and mean per question are
printed for both, with the time to load each pack the first time.

Without `--home`, the library pack is synthetic: the bundled pack's first 5,000 API entries
renamed into a made-up library (`benchlib`) with their task phrasings, written as an installed
pack in a scratch data directory, so the two packs differ only in size and name. With
`--home`, an installed pack of that data directory (`codeweaver ingest --python` wrote it).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from codeweaver_engine.compose import Libraries, extractive_answer
from codeweaver_engine.packs import BUNDLED_PACK
from codeweaver_engine.packs.catalog import catalog, packs_folder
from codeweaver_engine.packs.format import Pack
from codeweaver_engine.packs.index import read_index
from codeweaver_engine.packs.retrieval import PackSearch
from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder
from codeweaver_schema import Analysis

QUESTIONS = [
    "How do I remove whitespace from both ends of a string?",
    "How do I sort a list of dicts by a key?",
    "How do I get the size of a file in bytes?",
    "How do I merge two dicts?",
    "How do I parse a date string into a datetime?",
    "How do I make a time delay?",
    "How do I check if a file exists?",
    "How do I split a string on several separators?",
    "How do I read a file line by line?",
    "How do I convert a string to lowercase?",
    "How do I copy a file?",
    "How do I get the current working directory?",
    "How do I run a shell command and get its output?",
    "How do I count the occurrences of each item in a list?",
    "How do I generate a random integer in a range?",
    "How do I pretty print a JSON string?",
    "How do I get the last element of a list?",
    "How do I flatten a list of lists?",
    "How do I remove a key from a dictionary?",
    "How do I download a file over HTTP?",
]
SYNTHETIC_UNITS = 5000


def synthetic_pack(home: Path, model_id: str) -> str:
    """A 5,000-unit installed pack made of the bundled pack's API entries; returns its name."""
    from codeweaver_corpus.packs.store import model_slug, write_pack
    from codeweaver_corpus.pydocs.tasks import Task

    bundled = read_index(BUNDLED_PACK)
    chosen = [i for i, u in enumerate(bundled.units) if u.kind == "api"][:SYNTHETIC_UNITS]
    units = [
        replace(bundled.units[i], name=f"benchlib.{bundled.units[i].name}", aliases=[])
        for i in chosen
    ]
    kept = {bundled.units[i].name for i in chosen}
    tasks: list[Task] = []
    rows: list[int] = []
    row = 0
    for task in bundled.tasks:
        targets = tuple(f"benchlib.{t}" for t in task["targets"] if t in kept)
        if targets:
            tasks.append(Task(targets, tuple(task["phrases"])))
            rows += range(row, row + len(task["phrases"]))
        row += len(task["phrases"])
    write_pack(
        packs_folder(home) / f"benchlib-1.0-{model_slug(model_id)}",
        units,
        tasks,
        bundled.vectors[chosen],
        bundled.task_vectors[rows] if rows else np.zeros((0, bundled.vectors.shape[1])),
        {
            "name": "benchlib",
            "version": "1.0",
            "source": "installed",
            "title": "benchlib",
            "url": None,
            "embedding_model": model_id,
            "import_names": ["benchlib"],
        },
    )
    return "benchlib"


def _analysis(question: str) -> Analysis:
    return Analysis(
        question_type="independent",
        should_cache=True,
        intent="learning",
        language="en",
        standalone_question=question,
        reason="benchmark",
    )


async def _time(search: PackSearch, libraries: Libraries, question: str, pack: str) -> float:
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    started = time.perf_counter()
    hits = await search.search(question, k=8, packs={pack})
    await extractive_answer(
        question, _analysis(question), hits, embedder, floor=0.0, libraries=libraries
    )
    return time.perf_counter() - started


def _figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"median {1000 * statistics.median(ordered):6.1f} ms   p90 {1000 * p90:6.1f} ms   "
        f"mean {1000 * statistics.fmean(ordered):6.1f} ms"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, help="a data directory with installed packs")
    parser.add_argument("--pack", help="the installed pack to time (with --home)")
    parser.add_argument("--questions", type=Path, help="one question per line")
    parser.add_argument("--rounds", type=int, default=3, help="times each question is asked")
    args = parser.parse_args()
    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL)
    embedder.embed_sync(["warm up"])
    scratch = None if args.home else tempfile.TemporaryDirectory(prefix="codeweaver-pack-bench-")
    home = args.home or Path(scratch.name if scratch else "")
    name = args.pack if args.home else synthetic_pack(home, embedder.model_id)
    questions = (
        [q for q in args.questions.read_text(encoding="utf-8").splitlines() if q.strip()]
        if args.questions
        else QUESTIONS
    )
    listed = {entry.name: entry for entry in catalog(packs_folder(home)).listed(embedder.model_id)}
    if name not in listed:
        print(f"no pack {name!r} of {embedder.model_id} in {home}: {sorted(listed)}")
        return 2
    started = time.perf_counter()
    search = PackSearch(lambda: embedder, installed=packs_folder(home))
    shelf = await search.warm_up()
    loaded = time.perf_counter() - started
    libraries = Libraries(packs=[listed[name].pack])
    sizes = {index.pack.name: len(index) for index in shelf.indexes}
    python: list[float] = []
    library: list[float] = []
    for _ in range(args.rounds):
        for question in questions:
            python.append(await _time(search, libraries, question, "python"))
            library.append(await _time(search, libraries, question, name))
    pack: Pack = listed[name].pack
    print(f"packs loaded in {loaded:.1f} s (every installed pack of {home}, the bundled one)")
    print(f"{len(questions)} questions x {args.rounds}, search + composed answer, per question:")
    print(f"  {'python':8} {sizes['python']:>6} units   {_figures(python)}")
    print(f"  {pack.name:8} {sizes[name]:>6} units   {_figures(library)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
