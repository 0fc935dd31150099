"""docs/ANSWERS.md's current figures, read from `codeweaver eval answers --json` result files.

Each result file is one command's output, kept in docs/results/ (`RESULTS` says which files,
from which question sets, and how each is made); the tables say which rows and columns show
them. To add a set: run its command into a new file, add a `Result` and a `Row` (or a floor
column), run `python -m codeweaver.docs` (docs/DEVELOPMENT.md, "Figures in the docs").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

DATA = "data/answers"
"""Where the question sets are, from the repository's root."""
FLOORS = (0.62, 0.70, 0.76, 0.78, 0.80, 0.82, 0.84, 0.88)
"""The relevance floors the floor table shows (the default floor in bold)."""


class ResultFileError(ValueError):
    """A result file is missing, or was not made by the command its entry names."""


@dataclass(frozen=True)
class Result:
    """A result file under docs/results/ and the command that writes it."""

    file: str
    questions: str
    """The in-scope question set, a file under `DATA`."""
    out_of_scope: str | None = None
    """The out-of-scope set run with it, if any."""
    home: str | None = None
    """The data directory it runs with (`CODEWEAVER_HOME`): the pinned library environment's
    packs ingested there (`LIBRARY_COMMANDS`); None: the default, no installed pack."""

    def command_parts(self) -> list[str]:
        """The command that writes the file, from the repository's root, in a few parts."""
        home = f"CODEWEAVER_HOME={self.home} " if self.home else ""
        parts = [f"{home}uv run codeweaver eval answers --questions {DATA}/{self.questions}"]
        if self.out_of_scope:
            parts.append(f"--out-of-scope {DATA}/{self.out_of_scope}")
        return [*parts, f"--json --floors > docs/results/{self.file}"]

    @property
    def command(self) -> str:
        """The command that writes the file, on one line."""
        return " ".join(self.command_parts())

    def read(self, results: Path) -> dict[str, Any]:
        """The figures of the file.

        Raises:
            ResultFileError: the file is missing, or ran on other question sets.
        """
        path = results / self.file
        if not path.is_file():
            raise ResultFileError(f"{path} is missing; write it with: {self.command}")
        figures: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        expected = [self.questions, *([self.out_of_scope] if self.out_of_scope else [])]
        if figures.get("question_files") != expected:
            raise ResultFileError(
                f"{path} ran on {figures.get('question_files')}, not {expected}; "
                f"write it with: {self.command}"
            )
        return figures


DEV = Result("answers-dev.json", "python_so_questions_dev.jsonl", "out_of_scope_dev.jsonl")
TRAIN = Result("answers-train.json", "conala_train_labeled.jsonl")
H2 = Result("answers-h2.json", "conala_heldout_labeled.jsonl")
H3 = Result("answers-h3.json", "conala_fresh_labeled.jsonl")
BLIND_ENGLISH = Result("answers-blind-english.json", "blind_english_labeled.jsonl")
KO1 = Result("answers-ko1.json", "korean_heldout_labeled.jsonl")
LIBRARY_HOME = "/tmp/codeweaver-libraries"
"""The data directory the pinned library environment's packs are ingested into."""
LIBRARY_COMMANDS = (
    "scripts/library_env.sh /tmp/library-env",
    f"CODEWEAVER_HOME={LIBRARY_HOME} uv run codeweaver ingest --python /tmp/library-env/bin/python",
)
"""The pinned library environment (data/library_env/requirements.txt), ingested."""
THIRD_PARTY_DEV = Result("answers-third-party-dev.json", "third_party_dev.jsonl", home=LIBRARY_HOME)
THIRD_PARTY_FRESH = Result(
    "answers-third-party-fresh.json", "third_party_fresh.jsonl", home=LIBRARY_HOME
)
THIRD_PARTY_BLIND = Result(
    "answers-third-party-blind.json", "third_party_blind.jsonl", home=LIBRARY_HOME
)
DEV_WITH_PACKS = Result(
    "answers-dev-with-packs.json",
    "python_so_questions_dev.jsonl",
    "out_of_scope_dev.jsonl",
    home=LIBRARY_HOME,
)
RESULTS = (DEV, TRAIN, H2, H3, BLIND_ENGLISH, KO1)
"""Every standard-library answer result file the docs read, in the order the commands are
listed."""
LIBRARY_RESULTS = (THIRD_PARTY_DEV, THIRD_PARTY_FRESH, THIRD_PARTY_BLIND, DEV_WITH_PACKS)
"""The result files measured with the pinned library environment ingested."""

Part = Literal["all", "out_of_scope"] | str
"""What a row shows of a result: all its in-scope questions, one language's (`en`, `ko`), or
its out-of-scope questions."""


@dataclass(frozen=True)
class Row:
    """A row of the sets table."""

    label: str
    result: Result
    what: str
    part: Part = "all"
    strong: bool = False
    """Set in bold: the rows to read first."""


ROWS = (
    Row("dev, English", DEV, "Stack Overflow titles", part="en"),
    Row("dev, Korean", DEV, "the same questions in Korean", part="ko"),
    Row("dev, all", DEV, "", strong=True),
    Row("out of scope", DEV, "git, JavaScript, Rust, SQL, Docker, ...", part="out_of_scope"),
    Row('train ("H1")', TRAIN, "more CoNaLa titles, same labels"),
    Row('held out ("H2"), no longer blind', H2, "more CoNaLa titles"),
    Row(
        'held out ("H3"), no longer blind',
        H3,
        "the rest of CoNaLa's standard-library titles, idiom-heavy",
    ),
    Row(
        "blind English",
        BLIND_ENGLISH,
        "questions of the dev kind written by a helper blind to the engine, never read",
        strong=True,
    ),
    Row("Korean, KO1", KO1, "H1 and H2 titles in Korean (development set for Korean)"),
)
LIBRARY_ROWS = (
    Row("third-party dev, English", THIRD_PARTY_DEV, "Stack Overflow titles", part="en"),
    Row("third-party dev, Korean", THIRD_PARTY_DEV, "some of them in Korean", part="ko"),
    Row("third-party dev, all", THIRD_PARTY_DEV, "", strong=True),
    Row(
        "third-party fresh, held out",
        THIRD_PARTY_FRESH,
        "Stack Overflow titles in no other file, labelled blind; measured, never tuned on",
        strong=True,
    ),
    Row("third-party fresh, Korean", THIRD_PARTY_FRESH, "9 of them in Korean", part="ko"),
    Row(
        "third-party blind",
        THIRD_PARTY_BLIND,
        "questions of the kind written by a helper blind to the engine, never read",
    ),
    Row("dev, with the packs", DEV_WITH_PACKS, "the standard-library dev set"),
    Row("out of scope, with the packs", DEV_WITH_PACKS, "", part="out_of_scope"),
)
FLOOR_COLUMNS = (("dev", DEV), ("train", TRAIN), ("H2", H2), ("H3", H3), ("blind", BLIND_ENGLISH))


def _rate(count: int, n: int, strong: bool = False) -> str:
    # From the counts: the files' rates are rounded to four places, and rounding twice can
    # move the third.
    shown = f"{count / n:.3f}" if n else "–"
    return f"**{shown}**" if strong else shown


def _row(row: Row, results: Path) -> str:
    figures = row.result.read(results)
    label = f"**{row.label}**" if row.strong and row.part == "all" else row.label
    if row.part == "out_of_scope":
        outside = figures["out_of_scope"]
        answered = f"{outside['answered']} answered"
        declined = f"**{outside['declined']} of {outside['n']}**"
        cells = [label, str(outside["n"]), row.what, "", answered, declined]
        return "| " + " | ".join(cells) + " |"
    part = figures if row.part == "all" else figures["by_language"][row.part]
    cells = [
        label,
        str(part["n"]),
        row.what,
        _rate(part["correct"], part["n"], row.strong),
        _rate(part["wrong"], part["n"], row.strong),
        _rate(part["declined"], part["n"]),
    ]
    return "| " + " | ".join(cells) + " |"


def sets_table(results: Path, rows: tuple[Row, ...] = ROWS) -> str:
    """Accuracy, wrong and decline rates per question set, at the default floor."""
    lines = [
        "| set | n | what it is | accuracy | wrong | declined |",
        "|---|---|---|---|---|---|",
        *(_row(row, results) for row in rows),
    ]
    return "\n".join(lines)


def library_table(results: Path) -> str:
    """The third-party figures and the standard library's, with the pinned packs ingested."""
    return sets_table(results, LIBRARY_ROWS)


LIBRARY_FLOOR_ROWS = (
    ("third-party dev", THIRD_PARTY_DEV),
    ("third-party fresh", THIRD_PARTY_FRESH),
    ("third-party blind", THIRD_PARTY_BLIND),
)


def library_floors(results: Path) -> str:
    """The third-party sets' accuracy / wrong rate per relevance floor, from their curves."""
    shown = (0.40, *FLOORS)
    rows: list[str] = []
    default = 0.0
    for label, result in LIBRARY_FLOOR_ROWS:
        figures = result.read(results)
        if "floor_curve" not in figures:
            raise ResultFileError(f"{result.file} has no floor curve: {result.command}")
        default = figures["floor"]
        curve = {round(point["floor"], 2): point for point in figures["floor_curve"]}
        cells = []
        for floor in shown:
            point = curve[floor]
            cell = f"{_rate(point['correct'], point['n'])} / {_rate(point['wrong'], point['n'])}"
            cells.append(f"**{cell}**" if floor == default else cell)
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    head = [f"**{f:.2f}**" if f == default else f"{f:.2f}" for f in shown]
    lines = ["| floor | " + " | ".join(head) + " |", "|---" * (len(shown) + 1) + "|", *rows]
    return "\n".join(lines)


def library_commands(_results: Path) -> str:
    """The commands that make the library environment and write its result files."""
    lines = [
        *LIBRARY_COMMANDS,
        *(" \\\n    ".join(result.command_parts()) for result in LIBRARY_RESULTS),
    ]
    return "\n".join(["```bash", *lines, "```"])


def floors_table(results: Path) -> str:
    """Accuracy / wrong rate per relevance floor and set, from the runs' floor curves."""
    curves: list[dict[float, dict[str, Any]]] = []
    default: float | None = None
    for _, result in FLOOR_COLUMNS:
        figures = result.read(results)
        if "floor_curve" not in figures:
            raise ResultFileError(f"{result.file} has no floor curve: {result.command}")
        curves.append({round(point["floor"], 2): point for point in figures["floor_curve"]})
        default = figures["floor"]
    names = [name for name, _ in FLOOR_COLUMNS]
    lines = ["| floor | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for floor in FLOORS:
        strong = floor == default
        points = [curve[floor] for curve in curves]
        cells = [f"{_rate(p['correct'], p['n'])} / {_rate(p['wrong'], p['n'])}" for p in points]
        if strong:
            cells = [f"**{cell}**" for cell in cells]
        shown = f"**{floor:.2f}**" if strong else f"{floor:.2f}"
        lines.append("| " + " | ".join([shown, *cells]) + " |")
    return "\n".join(lines)


def commands(_results: Path) -> str:
    """The commands that write the result files, as a shell block."""
    lines = [" \\\n    ".join(result.command_parts()) for result in RESULTS]
    return "\n".join(["```bash", *lines, "```"])
