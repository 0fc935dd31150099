"""`codeweaver packs`: the documentation packs there are, and what each holds."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from rich.table import Table

from codeweaver.cli.console import data_dir_path, out
from codeweaver.cli.options import DataDirOption, JsonOption


def _ingested_documents(directory: Path) -> dict[str, object] | None:
    """The local user's ingested documents as a row, from the ingest manifest.

    The vector store is not opened: a running server may hold it.
    """
    from codeweaver.persistence import MANIFEST

    manifest = directory / MANIFEST
    try:
        raw = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    # The local user's documents (`codeweaver ingest PATH` without --tenant).
    tenant = raw.get("default") if isinstance(raw, dict) else None
    if not isinstance(tenant, dict) or not tenant:
        return None
    documents = len(tenant)
    built = datetime.fromtimestamp(manifest.stat().st_mtime, UTC).isoformat(timespec="seconds")
    return {
        "name": "documents",
        "version": None,
        "source": "ingested",
        "units": documents,
        "built_at": built,
        "path": str(manifest),
        "embedding_model": "",
        "failures": 0,
    }


def packs(as_json: JsonOption = False, data_dir: DataDirOption = None) -> None:
    """List the documentation packs: the bundled Python docs, installed libraries, documents."""
    from codeweaver_corpus.packs.store import list_packs

    directory = data_dir_path(data_dir)
    rows: list[dict[str, object]] = [pack.as_json() for pack in list_packs(directory)]
    documents = _ingested_documents(directory)
    if documents is not None:
        rows.append(documents)
    if as_json:
        out.print_json(json.dumps({"packs": rows}))
        return
    table = Table(title=f"Documentation packs ({directory})")
    for column in ("name", "version", "source", "units", "built", "path"):
        table.add_column(column, justify="right" if column == "units" else "left")
    for row in rows:
        table.add_row(
            str(row["name"]),
            str(row["version"] or "–"),
            str(row["source"]),
            f"{row['units']:,}" + (" documents" if row["source"] == "ingested" else ""),
            str(row["built_at"] or "–"),
            str(row["path"]),
        )
    out.print(table)
