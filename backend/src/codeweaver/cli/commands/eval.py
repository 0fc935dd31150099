"""`codeweaver eval`: the retrieval and cache evaluations, on data anyone can rerun."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from codeweaver.cli.console import err, out
from codeweaver.cli.options import JsonOption

if TYPE_CHECKING:
    from codeweaver_cache import SemanticCache

eval_app = typer.Typer(help="Measure retrieval and the semantic cache on real data.")

_FILE = {"exists": True, "dir_okay": False, "readable": True, "resolve_path": True}
_DIR = {"exists": True, "file_okay": False, "readable": True, "resolve_path": True}


def _print_table(title: str, figures: dict[str, object]) -> None:
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        table.add_row(key, shown)
    out.print(table)


@eval_app.command("retrieval")
def retrieval(
    questions: Annotated[
        Path, typer.Option("--questions", help="JSONL rows with linked_doc_files.", **_FILE)
    ],
    docs: Annotated[Path, typer.Option("--docs", help="Documentation folder.", **_DIR)],
    as_json: JsonOption = False,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Where the evaluation corpus is kept.")
    ] = None,
) -> None:
    """Recall@1/5/10 and MRR of the local-corpus retrieval path on questions with gold files.

    The docs folder is ingested into a collection of its own, kept between runs: a second run
    over an unchanged folder embeds nothing.
    """
    from codeweaver_corpus import DocumentCorpus, evaluate_retrieval
    from codeweaver_runtime import (
        DEFAULT_EMBEDDING_MODEL,
        close_qdrant_clients,
        default_data_dir,
        get_embedder,
        get_qdrant,
    )

    folder = (data_dir or default_data_dir()).expanduser() / "eval-qdrant"
    collection = "eval_" + hashlib.sha256(str(docs).encode()).hexdigest()[:12]

    async def run() -> str:
        corpus = DocumentCorpus(
            get_qdrant(str(folder)), get_embedder(DEFAULT_EMBEDDING_MODEL), collection=collection
        )
        try:
            with err.status("ingesting the docs (first run only) and asking the questions…"):
                report = await evaluate_retrieval(questions, docs, corpus=corpus)
            return report.to_json()
        finally:
            await close_qdrant_clients()

    figures = json.loads(asyncio.run(run()))
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
    else:
        _print_table("Retrieval", figures)


@eval_app.command("cache")
def cache(
    pairs: Annotated[
        Path | None, typer.Option("--pairs", help="JSONL question pairs.", **_FILE)
    ] = None,
    traps: Annotated[
        Path | None,
        typer.Option(
            "--traps",
            help="TSV of 'cached question<TAB>new question[<TAB>kind]' traps: any hit is wrong.",
            **_FILE,
        ),
    ] = None,
    same: Annotated[
        Path | None,
        typer.Option(
            "--same",
            help="TSV of paraphrase pairs in the traps format: every hit is right.",
            **_FILE,
        ),
    ] = None,
    as_json: JsonOption = False,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Evaluate only the first N rows.")
    ] = None,
) -> None:
    """Precision and hit rates of the semantic cache, or its wrong hits on traps.

    --pairs: duplicate-question pairs (issue 4's protocol). --traps: pairs of different
    questions, where any hit is wrong (each kind's wrong hits apart). --same: pairs of one
    question asked two ways, where every hit is right (the hit rate, which a guard that blocks
    everything brings down). Runs the same lookup code as the graph, in a throwaway in-memory
    store, offline.
    """
    if sum(option is not None for option in (pairs, traps, same)) != 1:
        raise typer.BadParameter("give one of --pairs, --traps or --same")
    if traps is not None:
        _cache_traps(traps, as_json)
        return
    if same is not None:
        _cache_same(same, as_json)
        return
    assert pairs is not None
    from codeweaver_cache import evaluate_cache

    async def run() -> str:
        with err.status("filling the cache and running every query twice…"):
            report = await evaluate_cache(pairs, cache=_throwaway_cache(), limit=limit)
        return report.to_json()

    figures = json.loads(asyncio.run(run()))
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
    else:
        _print_table("Semantic cache", {k: v for k, v in figures.items() if k != "rule"})


def _throwaway_cache() -> SemanticCache:
    """An empty cache in an in-memory store, on the default embedder, with a patient timeout."""
    from codeweaver_cache import SemanticCache
    from codeweaver_runtime import DEFAULT_EMBEDDING_MODEL, get_embedder, open_qdrant

    return SemanticCache(
        open_qdrant(":memory:"), get_embedder(DEFAULT_EMBEDDING_MODEL), timeout_s=60.0
    )


def _cache_traps(traps: Path, as_json: bool) -> None:
    """Store each trap's first question, look up its second through the lookup graph."""
    from codeweaver_cache import evaluate_traps

    async def run() -> str:
        with err.status("storing each trap's first question and looking up its second…"):
            report = await evaluate_traps(traps, cache=_throwaway_cache())
        return report.to_json()

    figures = json.loads(asyncio.run(run()))
    if as_json:
        typer.echo(json.dumps(figures, indent=2, ensure_ascii=False))
        return
    _print_table("Cache traps", {k: v for k, v in figures.items() if k not in ("pairs", "by_kind")})
    _print_kinds("wrong hits", figures["by_kind"])
    for pair in figures["pairs"]:
        if pair["hit"]:
            out.print(f"wrong hit: {pair['query']!r} served {pair['cached']!r}")


def _cache_same(same: Path, as_json: bool) -> None:
    """Store each pair's first question, look up its paraphrase: the share that hits."""
    from codeweaver_cache import evaluate_paraphrases

    async def run() -> str:
        with err.status("storing each pair's first question and looking up its paraphrase…"):
            report = await evaluate_paraphrases(same, cache=_throwaway_cache())
        return report.to_json()

    figures = json.loads(asyncio.run(run()))
    if as_json:
        typer.echo(json.dumps(figures, indent=2, ensure_ascii=False))
        return
    _print_table(
        "Cache paraphrases", {k: v for k, v in figures.items() if k not in ("pairs", "by_kind")}
    )
    _print_kinds("hits", figures["by_kind"])
    for pair in figures["pairs"]:
        if not pair["hit"]:
            out.print(f"missed: {pair['query']!r} ({pair['reason']})")


def _print_kinds(hits: str, by_kind: dict[str, dict[str, int]]) -> None:
    table = Table(title=f"{hits.capitalize()} by kind")
    table.add_column("kind")
    table.add_column("pairs", justify="right")
    table.add_column(hits, justify="right")
    for kind, counts in by_kind.items():
        table.add_row(kind, str(counts["n"]), str(counts["hits"]))
    out.print(table)


@eval_app.command("answers")
def answers(
    questions: Annotated[
        Path,
        typer.Option("--questions", help="JSONL rows: id, question, nuggets.", **_FILE),
    ],
    out_of_scope: Annotated[
        Path | None,
        typer.Option("--out-of-scope", help="JSONL rows: id, question (must decline).", **_FILE),
    ] = None,
    as_json: JsonOption = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="One line per question on stderr.")
    ] = False,
    floors: Annotated[
        bool,
        typer.Option(
            "--floors",
            help="Run with the relevance floor at 0 and add the accuracy / wrong-rate curve "
            "over floors; the figures are still those at the default floor.",
        ),
    ] = False,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N rows of each file.")
    ] = None,
) -> None:
    """Share of real questions answered with what a correct answer needs, offline (issue 10).

    Every question runs through the real main graph with default settings, in a fresh thread,
    with the answer cache off.
    """
    from codeweaver.context import Context
    from codeweaver.workflows.orchestration.evaluation import (
        Outcome,
        ask_all,
        evaluation_context,
        floor_curve,
        read_rows,
        report,
        verbose_line,
    )
    from codeweaver_runtime import close_qdrant_clients

    rows = read_rows(questions, in_scope=True)[:limit]
    if out_of_scope is not None:
        rows += read_rows(out_of_scope, in_scope=False)[:limit]

    def heard(outcome: Outcome) -> None:
        if verbose:
            err.print(verbose_line(outcome), markup=False, highlight=False)

    async def run() -> list[Outcome]:
        try:
            context = evaluation_context(0.0 if floors else None)
            return await ask_all(rows, context=context, on_row=heard)
        finally:
            await close_qdrant_clients()

    outcomes = asyncio.run(run())
    defaults = Context()
    default_floor = defaults.answer_relevance_floor
    figures = report(outcomes, default_floor if floors else None)
    figures["floor"] = default_floor
    # What was measured, so a result file kept under docs/results/ says which sets and which
    # release of the engine its figures are for.
    figures["question_files"] = [path.name for path in (questions, out_of_scope) if path]
    figures["answers_version"] = defaults.cache_corpus_version
    if floors:
        figures["floor_curve"] = floor_curve(
            outcomes, [round(0.4 + 0.02 * i, 2) for i in range(26)]
        )
    if as_json:
        typer.echo(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        _print_table(
            "Answers", {k: v for k, v in figures.items() if not isinstance(v, dict | list)}
        )
