"""`codeweaver bench --cli`: the real `codeweaver ask`, each answer from a new process.

What a developer at a terminal waits for: the process starts, imports, loads the model and the
bundled index, answers offline and exits. For each design (`onnx`, the current one, and
`sentence-transformers`, the design before, selected by `CODEWEAVER_EMBEDDING_RUNTIME`) and
each bytecode mode, it runs the CLI. `cached`: Python keeps compiled bytecode (in a bench-private
`PYTHONPYCACHEPREFIX`, filled by one unrecorded warm-up process), as any machine does from its
second process on. `none`: no bytecode at all, every module compiled from source in every
process, as on a machine that sets PYTHONDONTWRITEBYTECODE=1 over an install without .pyc
(`uv sync` compiles none unless asked with `--compile-bytecode`). The runs:

- cold: the first question on a fresh data directory and an empty model cache (the ONNX model
  is converted then, and the store and thread database created);
- fresh: new questions from new processes on the now warm data directory (cache misses);
- repeat: the same questions again from new processes (cache hits).

Under `before`, given `before_cli` (the `codeweaver` command of a checkout from before issue 14,
e.g. commit 9889b2f synced into its own folder), that older CLI is timed the same way: eager
imports, sentence-transformers and torch in every process. It is the baseline the goals are
compared with; `sentence-transformers` isolates what the runtime alone costs today.

Under `served`, a `codeweaver serve` (ONNX) is started on a fresh data directory first, and
every `ask` finds it there and sends its question to it: the thin client. The server's own
start-up is reported apart; its first question is the cold one.

Each run's wall time is measured around the process from outside, its peak memory is the
kernel's accounting of the finished child (`wait4`). Every run uses its own temporary folders
outside the project; the designs' answers to the same questions are compared.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from codeweaver.cli.remote import running_server
from codeweaver.cli.serve import find_langgraph_config, pick_port

DESIGNS = ("onnx", "sentence-transformers", "served")
"""The current design first, today's code on the previous runtime second, then the thin client:
`ask` sending its question to a `codeweaver serve` running on the same data directory."""
BEFORE = "before"
"""The CLI of a checkout from before issue 14 (`before_cli`): the baseline when given."""
BYTECODE_MODES = ("cached", "none")
COLD_QUESTION = "How do I reverse a list in Python?"
QUESTIONS = (
    "How do I sort a dictionary by value?",
    "How do I make a time delay?",
    "How do I read a file line by line?",
    "How can I check if a file exists?",
    "How do I run a shell command and get its output?",
    "How do I parse command line arguments?",
    "How do I get the current date and time?",
    "How do I convert a string to an integer?",
    "How do I merge two dictionaries?",
    "How do I remove duplicates from a list?",
)
GOALS_S = {"repeat": 2.0, "fresh": 4.0, "cold": 20.0}
"""Issue 14: a repeat question from a new process, a fresh offline question, the first question
on a fresh data directory (wall seconds, on two idle cores)."""
GOAL_NAMES = {
    "repeat": "repeat question (cache hit), new process",
    "fresh": "fresh offline question, new process",
    "cold": "first question on a fresh data dir",
}


@dataclass(frozen=True)
class Run:
    """One `codeweaver ask --json` process."""

    question: str
    wall_s: float
    peak_rss_mb: float
    exit_code: int
    cache_hit: bool | None
    in_run_s: float | None
    answer: str


@dataclass
class Series:
    """The runs of one kind (cold, fresh, repeat) under one design and bytecode mode."""

    runs: list[Run] = field(default_factory=list)

    def wall(self, quantile: float) -> float:
        """The wall time at a quantile (nearest rank), in seconds."""
        return _quantile([r.wall_s for r in self.runs], quantile)

    def peak_rss_mb(self) -> float:
        """The largest peak memory of one process among the runs."""
        return max((r.peak_rss_mb for r in self.runs), default=0.0)

    def summary(self) -> dict[str, float | int]:
        """p50 and p95 wall, median in-graph time, peak memory, cache hits and failures."""
        in_run = [r.in_run_s for r in self.runs if r.in_run_s is not None]
        return {
            "runs": len(self.runs),
            "p50_s": round(self.wall(0.5), 2),
            "p95_s": round(self.wall(0.95), 2),
            "in_graph_p50_s": round(statistics.median(in_run), 2) if in_run else 0.0,
            "peak_rss_mb": round(self.peak_rss_mb(), 1),
            "cache_hits": sum(1 for r in self.runs if r.cache_hit),
            "failures": sum(1 for r in self.runs if r.exit_code != 0),
        }


def _s(seconds: float | None) -> str:
    return f"{seconds:.2f} s" if seconds is not None else "–"


def _quantile(values: Sequence[float], quantile: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(quantile * len(ordered) + 0.5)))
    return ordered[rank - 1]


@dataclass
class CliBenchReport:
    """Every series by design and bytecode mode, and what they are measured against."""

    machine: dict[str, str | int | float]
    series: dict[str, dict[str, dict[str, Series]]]
    """design -> bytecode mode -> kind (cold, fresh, repeat) -> runs."""
    install: dict[str, float]
    load_before: float
    load_after: float
    server_start_s: dict[str, float] = field(default_factory=dict)
    """Seconds from `codeweaver serve` to its first answer of /ok, by bytecode mode."""

    def summaries(self) -> dict[str, dict[str, dict[str, dict[str, float | int]]]]:
        """The series as figures."""
        return {
            design: {
                mode: {kind: series.summary() for kind, series in kinds.items()}
                for mode, kinds in modes.items()
            }
            for design, modes in self.series.items()
        }

    def answers_identical(self) -> tuple[int, int]:
        """(questions answered alike by every design of this checkout, questions compared)."""
        by_question: dict[str, set[str]] = {}
        # The older checkout's answers may differ for reasons of their own (rendering changed).
        for design, modes in self.series.items():
            if design == BEFORE:
                continue
            for kinds in modes.values():
                for series in kinds.values():
                    for run in series.runs:
                        if run.exit_code == 0:
                            by_question.setdefault(run.question, set()).add(run.answer)
        alike = sum(1 for answers in by_question.values() if len(answers) == 1)
        return alike, len(by_question)

    def to_json(self) -> str:
        """One JSON object: figures, every run, the machine and the goals."""
        alike, compared = self.answers_identical()
        return json.dumps(
            {
                "machine": self.machine,
                "load_average_1m": {"before": self.load_before, "after": self.load_after},
                "goals_s": GOALS_S,
                "figures": self.summaries(),
                "answers_identical": {"alike": alike, "compared": compared},
                "install_mb": self.install,
                "server_start_s": self.server_start_s,
                "runs": {
                    design: {
                        mode: {kind: [asdict(r) for r in s.runs] for kind, s in kinds.items()}
                        for mode, kinds in modes.items()
                    }
                    for design, modes in self.series.items()
                },
            },
            indent=2,
            ensure_ascii=False,
        )

    def table(self) -> str:
        """Markdown tables: every figure, then the goals against the current design."""
        lines = [
            f"CLI from new processes · {self.machine['cores']} cores · load average (1 min) "
            f"{self.load_before:.2f} before, {self.load_after:.2f} after",
            "",
            "| design | .pyc | run | n | p50 s | p95 s | in graph p50 s | peak RSS MB | hits |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for design, modes in self.series.items():
            for mode, kinds in modes.items():
                for kind, series in kinds.items():
                    s = series.summary()
                    failed = f" ({s['failures']} failed)" if s["failures"] else ""
                    lines.append(
                        f"| {design} | {mode} | {kind}{failed} | {s['runs']} | {s['p50_s']} | "
                        f"{s['p95_s']} | {s['in_graph_p50_s']} | {s['peak_rss_mb']} | "
                        f"{s['cache_hits']} |"
                    )
        lines += [
            "",
            "| goal | limit | .pyc | in process p50 | through serve p50 | "
            "sentence-transformers p50 | before p50 | baseline / in process | |",
            "|---|---:|---|---:|---:|---:|---:|---:|---|",
        ]
        for kind, limit in GOALS_S.items():
            for mode in BYTECODE_MODES:
                found = {
                    d: self.series.get(d, {}).get(mode, {}).get(kind) for d in (*DESIGNS, BEFORE)
                }
                p50 = {d: s.wall(0.5) for d, s in found.items() if s is not None and s.runs}
                if not p50:
                    continue
                now, torch_runtime, served, before = (p50.get(d) for d in (*DESIGNS, BEFORE))
                candidates = (("met", now), ("met through serve", served))
                verdict = next(
                    (label for label, v in candidates if v is not None and v <= limit), "not met"
                )
                baseline = before if before is not None else torch_runtime
                ratio = f"{baseline / now:.1f}x" if baseline and now else "–"
                lines.append(
                    f"| {GOAL_NAMES[kind]} | ≤ {limit:g} s | {mode} | {_s(now)} | {_s(served)} | "
                    f"{_s(torch_runtime)} | {_s(before)} | {ratio} | {verdict} |"
                )
        if self.server_start_s:
            started = ", ".join(f"{s:g} s ({m} .pyc)" for m, s in self.server_start_s.items())
            lines += ["", f"`codeweaver serve` start-up until it answers: {started}."]
        alike, compared = self.answers_identical()
        lines += [
            "",
            f"Answers identical across designs and modes: {alike} of {compared} questions.",
        ]
        if self.install:
            parts = ", ".join(f"{name} {mb:,.0f} MB" for name, mb in self.install.items())
            lines.append(f"Install (site-packages): {parts}.")
        return "\n".join(lines)


def cli_command() -> list[str]:
    """The installed `codeweaver` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("codeweaver")
    return [str(script)] if script.exists() else [sys.executable, "-m", "codeweaver"]


def ask_once(
    question: str,
    env: dict[str, str],
    *,
    command: Sequence[str] | None = None,
    timeout_s: float = 600.0,
) -> Run:
    """Run `codeweaver ask QUESTION --json` as a new process; wall time and peak memory.

    `command` is the `codeweaver` to run, this environment's by default.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(
            [*(command or cli_command()), "ask", question, "--json"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=errors,
            env=env,
        )
        killer = threading.Timer(timeout_s, process.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        try:
            report = json.loads(out.read().decode("utf-8"))
        except ValueError:
            errors.seek(0)
            report = {"answer": errors.read().decode("utf-8", "replace")[-2000:]}
    # ru_maxrss is in kilobytes on Linux.
    return Run(
        question=question,
        wall_s=round(wall, 3),
        peak_rss_mb=round(usage.ru_maxrss / 1024, 1),
        exit_code=process.returncode,
        cache_hit=report.get("cache_hit"),
        in_run_s=report.get("seconds"),
        answer=str(report.get("answer", "")),
    )


_ONLINE_SETTINGS = frozenset(
    {"OPENAI_API_KEY", "OPENAI_BASE_URL", "GOOGLE_API_KEY", "GITHUB_TOKEN", "TAVILY_API_KEY"}
    | {"STACKEXCHANGE_KEY", "QDRANT_URL"}
)


def _environment(design: str, mode: str, folder: Path, pycache: Path) -> dict[str, str]:
    from codeweaver_runtime.embedder_registry import RUNTIME_ENV

    runtime = design if design in ("onnx", "sentence-transformers") else "onnx"
    env = {
        key: value
        for key, value in os.environ.items()
        # Offline and keyless: the engine every fresh machine starts with.
        if key not in _ONLINE_SETTINGS and not key.startswith("CODEWEAVER_")
    }
    env.update(
        {
            RUNTIME_ENV: runtime,
            "CODEWEAVER_CHAT_MODEL": "offline",
            "CODEWEAVER_HOME": str(folder / "home"),
            "XDG_CACHE_HOME": str(folder / "cache"),
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
        }
    )
    # Python reads and writes bytecode only under the prefix: the install's own .pyc files, if
    # any, play no part, so the two modes are the same on every machine.
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    if mode == "none":
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _start_server(env: dict[str, str], folder: Path) -> tuple[subprocess.Popen[bytes], float]:
    """`codeweaver serve` on a free port for `env`'s data directory; seconds until it answers.

    Raises:
        RuntimeError: no langgraph.json here, or the server did not answer within 5 minutes.
    """
    config = find_langgraph_config(Path.cwd())
    if config is None:
        raise RuntimeError("the served design needs langgraph.json: run from the repository")
    env = {**env, "LANGGRAPH_NO_VERSION_CHECK": "true", "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    port = pick_port("127.0.0.1", 0)
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with (folder / "serve.log").open("wb") as log:
        process = subprocess.Popen(
            [*cli_command(), "serve", "--port", str(port), "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    home = Path(env["CODEWEAVER_HOME"])
    while running_server(home) is None:
        if process.poll() is not None or time.perf_counter() - started > 300:
            _stop_server(process)
            raise RuntimeError(f"codeweaver serve did not start; see {folder / 'serve.log'}")
        time.sleep(0.5)
    return process, time.perf_counter() - started


def _stop_server(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, which `serve` passes on to the server; its whole session if it lingers."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def install_size_mb() -> dict[str, float]:
    """Megabytes of this environment's site-packages: in all, torch with CUDA, the ONNX runtime."""
    root = Path(sysconfig.get_paths()["purelib"])
    groups = {
        "torch and CUDA": ("torch", "nvidia", "triton", "cuda"),
        "onnxruntime and onnx": ("onnxruntime", "onnx"),
    }
    sizes = dict.fromkeys(["all", *groups], 0.0)
    for entry in root.iterdir():
        size = _size(entry) / 1_048_576
        sizes["all"] += size
        name = entry.name.split("-")[0].split(".")[0].lower()
        for group, names in groups.items():
            if name in names:
                sizes[group] += size
    return {key: round(value, 1) for key, value in sizes.items()}


def _size(path: Path) -> int:
    if path.is_symlink() or not path.is_dir():
        return path.lstat().st_size
    return sum(_size(child) for child in path.iterdir())


def run_cli_bench(
    *,
    iterations: int = 5,
    cold_runs: int = 2,
    designs: Sequence[str] = DESIGNS,
    bytecode: Sequence[str] = BYTECODE_MODES,
    measure_install: bool = True,
    before_cli: Path | None = None,
) -> CliBenchReport:
    """Run the CLI bench (see the module's docstring).

    Args:
        iterations: Fresh questions (and as many repeats) per design and mode, at most 10.
        cold_runs: First questions, each on its own fresh data directory and model cache.
        designs: Among `DESIGNS`.
        bytecode: Among `BYTECODE_MODES`.
        measure_install: Also add up the install's size.
        before_cli: The `codeweaver` command of a checkout from before issue 14; adds the
            `before` design, timed first.
    """
    unknown = [*(set(designs) - set(DESIGNS)), *(set(bytecode) - set(BYTECODE_MODES))]
    if unknown:
        raise ValueError(f"unknown design or bytecode mode: {', '.join(sorted(unknown))}")
    if before_cli is not None:
        if not before_cli.is_file():
            raise ValueError(f"no codeweaver command at {before_cli}")
        designs = (BEFORE, *designs)
    questions = QUESTIONS[: max(1, min(iterations, len(QUESTIONS)))]
    from codeweaver_runtime.embedder_registry import RUNTIME_ENV

    load_before = os.getloadavg()[0]
    series: dict[str, dict[str, dict[str, Series]]] = {}
    server_start_s: dict[str, float] = {}
    root = Path(tempfile.mkdtemp(prefix="codeweaver-cli-bench-"))
    try:
        for design in designs:
            for mode in bytecode:
                kinds = {"cold": Series(), "fresh": Series(), "repeat": Series()}
                series.setdefault(design, {})[mode] = kinds
                pycache = root / f"pycache-{mode}"
                command = [str(before_cli)] if design == BEFORE and before_cli else None
                if mode == "cached":
                    # Fills the bytecode cache; its own data dir and model cache are dropped.
                    warm_up = _environment(design, mode, root / "warm-up", pycache)
                    if design == BEFORE:
                        ask_once(COLD_QUESTION, warm_up, command=command)
                    else:
                        ask_once(COLD_QUESTION, {**warm_up, RUNTIME_ENV: "onnx"})
                    if design == "sentence-transformers":
                        ask_once(COLD_QUESTION, warm_up)
                    shutil.rmtree(root / "warm-up", ignore_errors=True)
                warm = root / f"{design}-{mode}-cold-0"
                server = None
                if design == "served":
                    server, seconds = _start_server(_environment(design, mode, warm, pycache), warm)
                    server_start_s[mode] = round(seconds, 1)
                try:
                    for n in range(1 if server else cold_runs):
                        folder = root / f"{design}-{mode}-cold-{n}"
                        env = _environment(design, mode, folder, pycache)
                        kinds["cold"].runs.append(ask_once(COLD_QUESTION, env, command=command))
                    # Fresh and repeat questions share one warm data directory and model cache.
                    env = _environment(design, mode, warm, pycache)
                    kinds["fresh"].runs.extend(ask_once(q, env, command=command) for q in questions)
                    kinds["repeat"].runs.extend(
                        ask_once(q, env, command=command) for q in questions
                    )
                finally:
                    if server is not None:
                        _stop_server(server)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return CliBenchReport(
        machine={
            "cores": os.cpu_count() or 0,
            "python": platform.python_version(),
            "processor": platform.processor() or platform.machine(),
        },
        series=series,
        install=install_size_mb() if measure_install else {},
        server_start_s=server_start_s,
        load_before=load_before,
        load_after=os.getloadavg()[0],
    )
