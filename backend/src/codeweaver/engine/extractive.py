"""The offline engine's answer: the best sentences and code of the evidence, cited.

Nothing here is invented: every cited sentence and code block is quoted from the evidence item
its `[n]` points to, which is why an offline answer always passes the grounding check. The
intent decides the sections (debugging: cause, fix, verification; learning: concept, example,
pitfalls; code review: findings by severity).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from codeweaver.engine.grounding import stems
from codeweaver_runtime import Embedder
from codeweaver_runtime.text import (
    collapse_whitespace,
    content_words,
    english_gloss,
    split_sentences,
    truncate,
)
from codeweaver_schema import Analysis, Answer, Citation, Evidence, Intent
from codeweaver_search import addresses_assistant

MAX_ITEMS = 4
MAX_SENTENCES_PER_ITEM = 60

_FENCED = re.compile(r"```[^\n]*\n(.*?)```", re.DOTALL)
_TABLE_BORDER = re.compile(r"^\s*[+|]?[-=+]{3,}[-=+|\s]*$")
_ROLE = re.compile(r":[\w:.-]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
_DOUBLE_BACKTICK = re.compile(r"``([^`]+)``")
_QUOTED_CODE = re.compile(r'"([A-Za-z_][\w.]*(?:\(\))?)"')
_FOOTNOTE = re.compile(r"\(\d+\)")
_CODE_START = re.compile(
    r"^\s*(>>>|\.\.\.|import |from \S+ import|def |class |return\b|for .* in .*:|while .*:|"
    r"if .*:|elif |else:|try:|except|with .*:|@\w+|#|//|\$ )"
)
_CODE_INSIDE = re.compile(r"\s(=|==|\+=|-=|!=|:=|->)\s|;\s*$|\w\[[^\]]*\]\s*=|^\s*\w+\(.*\)\s*$")
_PITFALL = re.compile(
    r"\b(note|warning|beware|careful|caution|never|must|only|however|instead|in place|"
    r"returns? None|mutable|deprecated|not\b)",
    re.IGNORECASE,
)
_CAUSE = re.compile(
    r"\b(because|when|if|raised|raises|occurs|happens|caused|error|exception)\b", re.I
)
_FIX = re.compile(r"\b(use|instead|should|can|to avoid|fix|call|pass|set|replace|try)\b", re.I)
_HIGH = re.compile(
    r"\b(security|unsafe|vulnerab\w*|injection|data loss|never|must not|deprecated)\b", re.I
)
_MEDIUM = re.compile(
    r"\b(should|avoid|instead|performance|slow|inefficient|error-prone|bug)\b", re.I
)

OFFLINE_NOTE = {
    "en": "_Answered offline, without a language model: the text below is quoted from the "
    "sources it cites._",
    "ko": "_언어 모델 없이 오프라인으로 답변했습니다. 아래 내용은 인용한 출처에서 그대로 "
    "가져온 것입니다 (출처는 영어입니다)._",
}
HEADINGS: dict[str, dict[str, str]] = {
    "en": {
        "concept": "Concept",
        "example": "Example",
        "pitfalls": "Pitfalls",
        "cause": "Likely cause",
        "fix": "Fix",
        "verify": "Verify",
        "findings": "Findings",
        "high": "High",
        "medium": "Medium",
        "low": "Low",
        "verify_text": "Run the failing code again after the change; the error should no "
        "longer appear. If it does, compare your code with the cited example line by line.",
        "none": "I found no evidence for this question in the enabled sources, so I will not "
        "guess. Try rephrasing it, naming the library and version, or ingest your own docs.",
    },
    "ko": {
        "concept": "개념",
        "example": "예제",
        "pitfalls": "주의할 점",
        "cause": "가능한 원인",
        "fix": "해결 방법",
        "verify": "확인",
        "findings": "발견 사항",
        "high": "높음",
        "medium": "중간",
        "low": "낮음",
        "verify_text": "수정한 뒤 실패하던 코드를 다시 실행해 오류가 사라졌는지 확인하세요. "
        "여전히 발생하면 인용된 예제와 한 줄씩 비교해 보세요.",
        "none": "활성화된 출처에서 이 질문에 대한 근거를 찾지 못해 추측하지 않겠습니다. "
        "라이브러리와 버전을 명시해 다시 질문하거나 문서를 직접 추가(ingest)해 보세요.",
    },
}


def _headings(language: str) -> dict[str, str]:
    return HEADINGS.get(language, HEADINGS["en"])


@dataclass
class _Unit:
    item: int
    text: str
    is_code: bool
    score: float = 0.0


@dataclass
class _Citations:
    evidence: list[Evidence]
    numbers: dict[int, int] = field(default_factory=dict)

    def cite(self, item: int) -> str:
        if item not in self.numbers:
            self.numbers[item] = len(self.numbers) + 1
        return f"[{self.numbers[item]}]"

    def build(self) -> list[Citation]:
        ordered = sorted(self.numbers.items(), key=lambda kv: kv[1])
        return [Citation.of(n, self.evidence[item]) for item, n in ordered]


def _table_rows(lines: list[str]) -> list[str]:
    """Grid-table rows as 'cell — cell', continuation lines folded into the row above."""
    rows: list[list[str]] = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if rows and not cells[0] and len(cells) == len(rows[-1]):
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
    return [" — ".join(c for c in row if c and not _FOOTNOTE.fullmatch(c)) for row in rows]


def plain(text: str) -> str:
    """The text with reST roles and grid tables reduced to readable prose; code untouched."""
    out: list[str] = []
    table: list[str] = []
    for line in text.splitlines():
        if _TABLE_BORDER.match(line):
            continue
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            table.append(line)
            continue
        if table:
            out += _table_rows(table)
            table = []
        out.append(line)
    out += _table_rows(table)
    joined = "\n".join(out)
    joined = _ROLE.sub(r"`\1`", joined)
    joined = _DOUBLE_BACKTICK.sub(r"`\1`", joined)
    # pydoc renders code as "name()": show it as code when it is clearly an identifier.
    return _QUOTED_CODE.sub(
        lambda m: f"`{m.group(1)}`" if re.search(r"[_.(]", m.group(1)) else m.group(0), joined
    )


def _is_code_line(line: str) -> bool:
    if _CODE_START.match(line) or _CODE_INSIDE.search(line):
        return True
    words = line.split()
    return 0 < len(words) <= 4 and line.rstrip().endswith((")", "]", "}", ":"))


def _looks_like_code(lines: list[str]) -> bool:
    # Indentation alone also marks definition lists and quotes in reST: code has code syntax on
    # most lines, and no line of it reads like a sentence.
    coded = sum(_is_code_line(line) for line in lines)
    prose = sum(len(line.split()) > 6 and not _is_code_line(line) for line in lines)
    return coded / len(lines) >= 0.6 and prose == 0


def _doctests(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") or (current and stripped and not stripped.startswith("|")):
            current.append(stripped)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def code_blocks(text: str) -> list[str]:
    """Fenced blocks, doctest sessions, and indented blocks that read as code, not prose."""
    blocks = [b.strip("\n") for b in _FENCED.findall(text)]
    rest = _FENCED.sub("\n", text)
    blocks += _doctests(rest)
    run: list[str] = []

    def flush() -> None:
        body = [ln for ln in run if ln.strip()]
        if body and not any(">>>" in ln for ln in body) and _looks_like_code(body):
            indent = min(len(ln) - len(ln.lstrip()) for ln in body)
            blocks.append("\n".join(ln[indent:] for ln in run).strip("\n"))
        run.clear()

    for line in rest.splitlines():
        if line.startswith(("   ", "\t")) and line.strip():
            run.append(line)
        elif not line.strip() and run:
            run.append("")
        else:
            flush()
    flush()
    return [b for b in blocks if 0 < len(b) <= 1200]


def _prose(text: str) -> str:
    without_fences = _FENCED.sub("\n\n", text)
    kept = [
        ln
        for ln in without_fences.splitlines()
        if not ln.lstrip().startswith((">>>", "...")) and not ln.startswith(("    ", "\t"))
    ]
    return "\n".join(kept)


def _units(evidence: list[Evidence]) -> list[_Unit]:
    units: list[_Unit] = []
    for i, ev in enumerate(evidence):
        text = plain(ev.content)
        # Sentences that give orders to an AI reader are injected text, not an answer.
        sentences = [
            s
            for s in split_sentences(_prose(text))
            if 4 <= len(s.split()) <= 80 and not s.startswith("```") and not addresses_assistant(s)
        ][:MAX_SENTENCES_PER_ITEM]
        units.extend(_Unit(i, collapse_whitespace(s), False) for s in sentences)
        blocks = [b for b in code_blocks(text) if not addresses_assistant(b)]
        units.extend(_Unit(i, block, True) for block in blocks[:6])
    return units


def _without_injection(text: str) -> str:
    """The text on one line, without the sentences that give orders to an AI reader."""
    kept = [s for s in split_sentences(text) if not addresses_assistant(s)]
    return collapse_whitespace(" ".join(kept))


async def _score(question: str, units: list[_Unit], embedder: Embedder | None) -> None:
    if not units:
        return
    if embedder is None:
        # Without an embedder, shared words alone rank the sentences.
        sims = np.zeros(len(units))
    else:
        vectors = await embedder.embed([question, *(u.text[:600] for u in units)])
        sims = vectors[1:] @ vectors[0]
    asked = set(content_words(question))
    for unit, sim in zip(units, np.asarray(sims), strict=True):
        overlap = len(asked & set(content_words(unit.text))) / max(len(asked), 1)
        # Earlier (better ranked) evidence gets a small edge over later items.
        unit.score = float(sim) + 0.25 * overlap - 0.02 * unit.item


def _best(
    units: list[_Unit],
    k: int,
    *,
    used: set[str],
    pattern: re.Pattern[str] | None = None,
    min_score: float = 0.15,
) -> list[_Unit]:
    chosen: list[_Unit] = []
    for unit in sorted(units, key=lambda u: u.score, reverse=True):
        if unit.is_code or unit.text in used or unit.score < min_score:
            continue
        if pattern is not None and not pattern.search(unit.text):
            continue
        if any(_near_duplicate(unit.text, c.text) for c in chosen):
            continue
        chosen.append(unit)
        used.add(unit.text)
        if len(chosen) == k:
            break
    return chosen


def _near_duplicate(a: str, b: str) -> bool:
    wa, wb = set(content_words(a)), set(content_words(b))
    return bool(wa and wb) and len(wa & wb) / min(len(wa), len(wb)) > 0.8


def _best_code(units: list[_Unit], question: str) -> _Unit | None:
    asked = stems(content_words(question))
    related = [u for u in units if u.is_code and asked & stems(content_words(u.text))]
    return max(related, key=lambda u: u.score) if related else None


def _severity(text: str) -> str:
    if _HIGH.search(text):
        return "high"
    return "medium" if _MEDIUM.search(text) else "low"


def _sentence_lines(units: list[_Unit], cites: _Citations) -> list[str]:
    return [f"- {u.text} {cites.cite(u.item)}" for u in units]


def _code_line(unit: _Unit, cites: _Citations) -> list[str]:
    return [f"```\n{unit.text}\n```", f"{cites.cite(unit.item)}"]


def _compose(
    intent: Intent, question: str, units: list[_Unit], cites: _Citations, h: dict[str, str]
) -> list[str]:
    used: set[str] = set()
    out: list[str] = []
    code = _best_code(units, question)
    if intent == "debugging":
        cause = _best(units, 2, used=used, pattern=_CAUSE) or _best(units, 1, used=used)
        fix = _best(units, 2, used=used, pattern=_FIX)
        out += [f"**{h['cause']}**", *_sentence_lines(cause, cites)]
        if fix or code:
            out += ["", f"**{h['fix']}**", *_sentence_lines(fix, cites)]
            if code:
                out += _code_line(code, cites)
        out += ["", f"**{h['verify']}**", h["verify_text"]]
    elif intent == "code_review":
        findings = _best(units, 5, used=used)
        out.append(f"**{h['findings']}**")
        for level in ("high", "medium", "low"):
            group = [u for u in findings if _severity(u.text) == level]
            if group:
                out += [
                    f"- _{h[level]}_:",
                    *(f"  {line}" for line in _sentence_lines(group, cites)),
                ]
    else:
        concept = _best(units, 3, used=used)
        out += [f"**{h['concept']}**", *_sentence_lines(concept, cites)]
        if code:
            out += ["", f"**{h['example']}**", *_code_line(code, cites)]
        pitfalls = _best(units, 2, used=used, pattern=_PITFALL, min_score=0.25)
        if pitfalls:
            out += ["", f"**{h['pitfalls']}**", *_sentence_lines(pitfalls, cites)]
    return out


async def extractive_answer(
    question: str, analysis: Analysis, evidence: list[Evidence], embedder: Embedder | None
) -> Answer:
    """Assemble a cited answer from the best evidence, without a language model.

    Without an embedder (it failed), sentences are ranked by the words they share with the
    question.
    """
    language = analysis.language
    h = _headings(language)
    note = OFFLINE_NOTE.get(language, OFFLINE_NOTE["en"])
    ranked = sorted(
        (e for e in evidence if e.content.strip()),
        key=lambda e: e.rerank_score if e.rerank_score is not None else e.score,
        reverse=True,
    )[:MAX_ITEMS]
    if not ranked:
        return Answer(
            text=f"{note}\n\n{h['none']}",
            intent=analysis.intent,
            language=language,
            grounded=False,
            degraded=True,
            offline=True,
        )
    units = _units(ranked)
    # Retrieval is in English; a question in another language is matched through the standalone
    # question, which keeps its English identifiers.
    basis = analysis.standalone_question or question
    await _score(f"{basis} {english_gloss(basis)}".strip(), units, embedder)
    cites = _Citations(ranked)
    body = _compose(analysis.intent, f"{basis} {english_gloss(basis)}", units, cites, h)
    if not cites.numbers:
        # Nothing scored well enough: quote the top item's opening instead of saying nothing.
        opening = _without_injection(plain(ranked[0].content))
        body = [f"- {truncate(opening, 400)} {cites.cite(0)}"] if opening else [h["none"]]
    return Answer(
        text="\n".join([note, "", *body]).strip(),
        citations=cites.build(),
        intent=analysis.intent,
        language=language,
        grounded=True,
        offline=True,
    )
