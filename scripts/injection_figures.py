"""Precision and recall of the injection classifier on its labelled sentences, and its false alarms
over the bundled Python documentation.

    uv run python scripts/injection_figures.py

`data/injection_sentences.tsv` holds sentences labelled `injection` or `documentation`, in four
parts written one after another (its header says how); the figures are given per part, per
language and in all. Every prose sentence of the bundled Python 3.11 documentation is
documentation, so any sentence the classifier flags there is a false alarm; they are printed.
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from codeweaver_engine.language.injection import classify
from codeweaver_engine.language.words import split_sentences
from codeweaver_engine.packs.index import load_index

SENTENCES = Path(__file__).resolve().parents[1] / "data" / "injection_sentences.tsv"


@dataclass(frozen=True)
class Row:
    part: str
    label: str
    language: str
    topic: str
    sentence: str


def read_rows(path: Path = SENTENCES) -> list[Row]:
    """The labelled sentences, each with the part of the file it is in."""
    rows: list[Row] = []
    part = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# --- "):
            part = line.removeprefix("# --- ").strip()
        if not line.strip() or line.startswith("#"):
            continue
        label, language, topic, sentence = line.split("\t")
        rows.append(Row(part, label, language, topic, sentence))
    return rows


def figures(rows: list[Row]) -> str:
    """'precision P  recall R  (tp fp fn tn)' of the classifier on `rows`."""
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for row in rows:
        flagged = bool(classify(row.sentence, row.topic))
        wanted = row.label == "injection"
        key = ("t" if flagged == wanted else "f") + ("p" if flagged else "n")
        counts[key] += 1
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return (
        f"precision {precision:.3f}  recall {recall:.3f}  "
        f"(tp {tp}, fp {fp}, fn {fn}, tn {counts['tn']}; {len(rows)} sentences)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=Path, default=SENTENCES)
    args = parser.parse_args()
    rows = read_rows(args.sentences)
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[f"part {row.part}"].append(row)
        groups[f"language {row.language}"].append(row)
    print(f"{args.sentences.name}")
    for name in sorted(groups):
        print(f"  {name:<12} {figures(groups[name])}")
    print(f"  {'all':<12} {figures(rows)}")
    for row in rows:
        if bool(classify(row.sentence, row.topic)) != (row.label == "injection"):
            print(f"    wrong ({row.label}, {row.language}): {row.sentence}")

    index = load_index()
    checked, alarms = 0, []
    for unit in index.units:
        prose = re.sub(r"```.*?```", " ", unit.text, flags=re.DOTALL)
        for sentence in split_sentences(prose):
            checked += 1
            if classify(sentence):
                alarms.append(sentence)
    version = index.pack.version
    print(f"bundled Python {version} docs: {len(alarms)} of {checked:,} sentences flagged")
    for sentence in alarms:
        print(f"    {sentence}")


if __name__ == "__main__":
    main()
