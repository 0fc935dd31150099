"""`codeweaver ingest --python`: one documentation pack per installed distribution.

For each distribution: skip it when its pack is current (same name, version, embedding model,
extractor version and task file); otherwise extract its units in a worker process
(`worker.extract_in_worker`), attach its curated tasks (`data/tasks/<dist>.txt`, targets
resolved through the units' names and aliases; a target the installed version lacks is
recorded, not fatal), embed units and task phrasings with the operator's embedder in batches
(a text an earlier pack of the library embedded with the same model keeps its vector: an
upgrade or a rebuild embeds only what is new), and write the pack atomically
(`store.write_pack`). Extraction of the next distribution runs
while this one is embedded. A distribution that fails is recorded with its reason in the
report (`last-ingest.json` beside the packs) and the run goes on; only a full disk stops it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from codeweaver_corpus.packs.environment import Distribution, TargetEnvironment, normalized
from codeweaver_corpus.packs.extract import (
    DEFAULT_MAX_UNITS,
    DEFAULT_MODULE_SECONDS,
    Extraction,
    Request,
    extractor_version,
)
from codeweaver_corpus.packs.store import (
    is_current,
    known_vectors,
    pack_folder,
    packs_root,
    remove_leftovers,
    remove_superseded,
    write_pack,
)
from codeweaver_corpus.packs.worker import (
    DEFAULT_WORKER_SECONDS,
    ExtractionFailed,
    extract_in_worker,
)
from codeweaver_corpus.pydocs.tasks import Task, load_tasks
from codeweaver_engine.libraries import unnamed_phrase
from codeweaver_engine.packs.format import FORMAT_VERSION, Pack, embedding_text
from codeweaver_engine.packs.units import DocUnit, first_sentence, prose_of

TASKS_DIR = Path(str(files("codeweaver_corpus") / "data" / "tasks"))
"""The curated task files, one per distribution (`pandas.txt`, `beautifulsoup4.txt`)."""
REPORT_FILE = "last-ingest.json"
EMBED_BATCH = 512
"""Texts per call to the embedder: the progress bar moves this often."""
_SECTIONS = re.compile(
    r"\n\n\*\*(?:Parameters|Other parameters|Returns|Yields|Raises|Warns|See also|Notes"
    r"|Examples)\*\*"
)

Embed = Callable[[Sequence[str]], np.ndarray]
OnEvent = Callable[[str, str, int, int], None]
"""Progress: (event, distribution, done, total); events `extract`, `embed`, `done`."""


@dataclass
class PackResult:
    """What ingesting one distribution did.

    Attributes:
        name: The distribution.
        version: Its installed version.
        status: `built`, `unchanged`, `empty` (no public API found) or `failed`.
        units: Units in its pack.
        seconds: Time spent on it: its extraction and its embedding (wall clock).
        cpu_seconds: Processor time spent on it (the worker, the inspecting process, and
            embedding).
        failures: What could not be read (modules that failed to import, ...).
        missing_targets: Task targets the installed version lacks.
        reason: Why it failed, for `failed` and `empty`.
        path: Its pack's folder.
        reused: Vectors taken from an earlier pack of the library (texts not embedded again).
    """

    name: str
    version: str
    status: str
    units: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    missing_targets: list[str] = field(default_factory=list)
    reason: str = ""
    path: Path | None = None
    reused: int = 0

    def as_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "name": self.name,
            "version": self.version,
            "status": self.status,
            "units": self.units,
            "seconds": round(self.seconds, 2),
            "cpu_seconds": round(self.cpu_seconds, 2),
            "failures": self.failures,
            "missing_targets": self.missing_targets,
            "reason": self.reason,
            "path": str(self.path) if self.path else None,
            "reused": self.reused,
        }


@dataclass
class IngestReport:
    """What one `codeweaver ingest --python` did, distribution by distribution."""

    python: str
    python_version: str
    results: list[PackResult]
    seconds: float

    def as_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "python": self.python,
            "python_version": self.python_version,
            "seconds": round(self.seconds, 2),
            "results": [result.as_json() for result in self.results],
        }


EMBEDDED_DESCRIPTION_CHARS = 120
"""Characters of an API unit's first sentence its vector encodes at most, after its name."""


def pack_embedding_text(unit: DocUnit) -> str:
    """What an installed pack's unit vector encodes: its name and its description's first sentence.

    The engine's `embedding_text` (name and 400 characters of prose) stops here at the first
    Parameters, Returns, ... list and at the first sentence: embedding is most of an ingest's
    time. On the third-party dev questions (every question answered, packs of the pinned
    environment) the first sentence ranks as well as 200 characters of the description did
    (0.680 against 0.676 right; the fresh held-out set 0.559 both ways), for 26 tokens a unit
    of pandas against 42; 200 characters had replaced 400 earlier for the same reason (on the
    curated pandas phrasings, top 5 0.530 against 0.500). The Python pack's entries have no
    such lists; their vectors are `embedding_text`'s.
    """
    if unit.kind != "api":
        return embedding_text(unit)
    description = _SECTIONS.split(unit.text, maxsplit=1)[0]
    prose = first_sentence(" ".join(prose_of(description).split()))
    return f"{unit.name}: {prose}"[: EMBEDDED_DESCRIPTION_CHARS + len(unit.name) + 2]


def tasks_file_for(name: str, tasks_dir: Path = TASKS_DIR) -> Path | None:
    """A distribution's curated task file (`beautifulsoup4.txt`), if there is one."""
    path = tasks_dir / f"{normalized(name)}.txt"
    return path if path.is_file() else None


def _sha256(path: Path | None) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else None


def attach_tasks(
    tasks: Sequence[Task], resolved: dict[str, str | None]
) -> tuple[list[Task], list[str]]:
    """The tasks whose targets the pack has (targets it lacks dropped), and those it lacks."""
    kept: list[Task] = []
    missing: list[str] = []
    for task in tasks:
        present = tuple(t for t in task.targets if resolved.get(t))
        missing += [t for t in task.targets if not resolved.get(t)]
        if present:
            kept.append(Task(present, task.phrases))
    return kept, sorted(set(missing))


@dataclass
class _Extracted:
    """A worker's outcome and how long it took."""

    extraction: Extraction | None
    failure: ExtractionFailed | None
    seconds: float


def _extract(request: Request, seconds: int) -> _Extracted:
    started = time.perf_counter()
    try:
        extraction = extract_in_worker(request, seconds=seconds)
    except ExtractionFailed as exc:
        return _Extracted(None, exc, time.perf_counter() - started)
    return _Extracted(extraction, None, time.perf_counter() - started)


def _embed(
    embed: Embed,
    texts: Sequence[str],
    on_progress: Callable[[int, int], None],
    known: dict[str, Any] | None = None,
) -> tuple[Any, int]:
    """The texts' vectors, in order, and how many were taken from `known` (not embedded again).

    Each distinct text is embedded once; a text an earlier build embedded (`known`) is not.
    """
    known = known or {}
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    fresh: dict[str, Any] = {}
    reused = len(texts) - sum(1 for t in texts if t not in known)
    on_progress(reused, len(texts))
    for start in range(0, len(missing), EMBED_BATCH):
        batch = missing[start : start + EMBED_BATCH]
        fresh.update(zip(batch, np.asarray(embed(batch), dtype=np.float32), strict=True))
        on_progress(reused + sum(1 for t in texts if t in fresh), len(texts))
    if not texts:
        return None, 0
    vectors = [fresh[t] if t in fresh else np.asarray(known[t], dtype=np.float32) for t in texts]
    return np.stack(vectors), reused


def build_packs(
    environment: TargetEnvironment,
    distributions: Sequence[Distribution],
    *,
    home: Path,
    embed: Embed,
    model_id: str,
    dimension: int,
    tasks_dir: Path = TASKS_DIR,
    on_event: OnEvent | None = None,
    max_units: int = DEFAULT_MAX_UNITS,
    worker_seconds: int = DEFAULT_WORKER_SECONDS,
    module_seconds: int = DEFAULT_MODULE_SECONDS,
    inspect: bool = True,
    force: bool = False,
    jobs: int = 1,
) -> IngestReport:
    """Build (or keep) one pack per distribution; returns what happened to each.

    Args:
        environment: The target interpreter, probed.
        distributions: The distributions to pack.
        home: The data directory (`$CODEWEAVER_HOME`).
        embed: Encodes texts to unit-length vectors (the operator's embedder).
        model_id: The embedder's id, recorded and part of each pack's folder name.
        dimension: The embedder's vector size (a pack without tasks still records it).
        tasks_dir: Where curated task files are.
        on_event: Told of progress.
        max_units: Most units per distribution.
        worker_seconds: Time limit of one distribution's extraction.
        module_seconds: Time limit of importing one module while inspecting.
        inspect: Also import the packages in the target interpreter (False: static only).
        force: Rebuild packs that are current.
        jobs: Extractions run ahead while a pack is embedded.

    Raises:
        store.NoSpaceLeft: the disk is full.
    """
    started = time.perf_counter()
    notify = on_event or (lambda event, name, done, total: None)
    remove_leftovers(home)
    results: list[PackResult] = []
    pending: list[tuple[Distribution, Path | None, Future[_Extracted] | None]] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="extract") as pool:
        for dist in distributions:
            tasks_file = tasks_file_for(dist.name, tasks_dir)
            folder = pack_folder(home, dist.name, dist.version, model_id)
            expected = _identity(dist, model_id, tasks_file)
            if not force and is_current(folder, expected):
                pending.append((dist, tasks_file, None))
                continue
            targets = (
                tuple(t for task in load_tasks(tasks_file) for t in task.targets)
                if tasks_file
                else ()
            )
            request = Request(
                name=dist.name,
                version=dist.version,
                import_names=dist.import_names,
                search_paths=environment.path,
                python=str(environment.python) if inspect else None,
                max_units=max_units,
                targets=targets,
                module_seconds=module_seconds,
            )
            pending.append((dist, tasks_file, pool.submit(_extract, request, worker_seconds)))
        for done, (dist, tasks_file, future) in enumerate(pending):
            folder = pack_folder(home, dist.name, dist.version, model_id)
            notify("extract", dist.name, done, len(pending))
            if future is None:
                results.append(_unchanged(dist, folder))
            else:
                results.append(
                    _build_one(
                        dist,
                        future.result(),
                        home=home,
                        folder=folder,
                        tasks_file=tasks_file,
                        environment=environment,
                        embed=embed,
                        model_id=model_id,
                        dimension=dimension,
                        notify=notify,
                    )
                )
            notify("done", dist.name, done + 1, len(pending))
    report = IngestReport(
        python=str(environment.python),
        python_version=environment.version,
        results=results,
        seconds=time.perf_counter() - started,
    )
    _write_report(home, report)
    return report


def _identity(dist: Distribution, model_id: str, tasks_file: Path | None) -> dict[str, Any]:
    """The manifest fields that decide whether a pack must be rebuilt."""
    return {
        "format": FORMAT_VERSION,
        "name": dist.name,
        "version": dist.version,
        "source": "installed",
        "embedding_model": model_id,
        "extractor_version": extractor_version(),
        "tasks_file_sha256": _sha256(tasks_file),
    }


def _unchanged(dist: Distribution, folder: Path) -> PackResult:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return PackResult(
        name=dist.name,
        version=dist.version,
        status="unchanged",
        units=int(manifest.get("units", 0)),
        failures=list(manifest.get("failures", ())),
        missing_targets=list(manifest.get("missing_targets", ())),
        path=folder,
    )


def _build_one(
    dist: Distribution,
    extracted: _Extracted,
    *,
    home: Path,
    folder: Path,
    tasks_file: Path | None,
    environment: TargetEnvironment,
    embed: Embed,
    model_id: str,
    dimension: int,
    notify: OnEvent,
) -> PackResult:
    extraction = extracted.extraction
    if extraction is None:
        return PackResult(
            dist.name,
            dist.version,
            "failed",
            seconds=extracted.seconds,
            reason=str(extracted.failure),
        )
    worker_cpu = float(extraction.stats.get("cpu_seconds", 0.0))
    if not extraction.units:
        return PackResult(
            dist.name,
            dist.version,
            "empty",
            seconds=extracted.seconds,
            cpu_seconds=worker_cpu,
            failures=extraction.failures,
            reason="no public API found",
        )
    started, cpu_started = time.perf_counter(), time.process_time()
    tasks, missing = attach_tasks(load_tasks(tasks_file) if tasks_file else [], extraction.targets)
    texts = [pack_embedding_text(unit) for unit in extraction.units]
    pack = Pack(dist.name, dist.version, "installed", dist.name, None, model_id, dist.import_names)
    # Searches read a library's phrasings without its names (`unnamed_phrase`); so are they
    # embedded.
    phrases = [unnamed_phrase(phrase, pack) for task in tasks for phrase in task.phrases]
    total = len(texts) + len(phrases)

    def progress(done: int, _: int, offset: int = 0) -> None:
        notify("embed", dist.name, offset + done, total)

    # Texts an earlier pack of this library embedded with this model keep their vectors.
    known = known_vectors(home, dist.name, model_id)
    unit_vectors, reused_units = _embed(embed, texts, progress, known)
    task_vectors, reused_phrases = _embed(
        embed, phrases, lambda d, t: progress(d, t, offset=len(texts)), known
    )
    if task_vectors is None:
        task_vectors = np.zeros((0, dimension), dtype=np.float32)
    manifest = {
        **_identity(dist, model_id, tasks_file),
        "title": dist.name,
        "url": None,
        "summary": dist.summary,
        "import_names": list(dist.import_names),
        "interpreter": {
            "path": str(environment.python),
            "executable": environment.executable,
            "python_version": environment.version,
        },
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "docstring_style": extraction.style,
        "embedded_text": "name and the first sentence of the description (120 characters at most)",
        "embedded_phrases": "task phrasings without the library's names",
        "vectors_reused": reused_units + reused_phrases,
        "tasks_file": tasks_file.name if tasks_file else None,
        "failures": extraction.failures,
        "missing_targets": missing,
        "stats": extraction.stats,
    }
    write_pack(
        folder,
        extraction.units,
        tasks,
        unit_vectors,
        task_vectors,
        manifest,
        embedded={"units": texts, "phrases": phrases},
    )
    remove_superseded(home, folder, manifest)
    return PackResult(
        dist.name,
        dist.version,
        "built",
        units=len(extraction.units),
        seconds=extracted.seconds + time.perf_counter() - started,
        cpu_seconds=worker_cpu + time.process_time() - cpu_started,
        failures=extraction.failures,
        missing_targets=missing,
        path=folder,
        reused=reused_units + reused_phrases,
    )


def _write_report(home: Path, report: IngestReport) -> None:
    root = packs_root(home)
    root.mkdir(parents=True, exist_ok=True)
    partial = root / f".{REPORT_FILE}.tmp"
    partial.write_text(json.dumps(report.as_json(), indent=1) + "\n", encoding="utf-8")
    partial.replace(root / REPORT_FILE)
