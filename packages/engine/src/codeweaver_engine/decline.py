"""An honest "I could not find it": what was searched, what was not, and what to do next.

The offline engine declines when the best evidence is not relevant enough to answer, when there
is none, or when the question is about something its corpus does not cover. A decline is still
useful: it says which sources were searched and which were unavailable (and why), how to get a
better answer (a model, the web sources' keys, the user's own documents), and drafts a question
ready to post on Stack Overflow. A decline cites nothing and is never cached.
"""

from __future__ import annotations

import re

from codeweaver_engine.language.words import collapse_whitespace, truncate
from codeweaver_engine.packs import DOCS_VERSION
from codeweaver_schema import (
    SOURCE_LABELS,
    Analysis,
    Answer,
    DeclineReason,
    ErrorRecord,
    Evidence,
    SourceName,
)
from codeweaver_schema.render import escape_markdown

_ROUND = re.compile(r"^round \d+: ")
MAX_NEAREST = 3
"""How many of the closest pages a decline below the relevance floor names."""

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "not_found": "**I could not find an answer to this in the sources I searched, so I will "
        "not guess.**",
        "out_of_scope": "**This looks like a question about {topic}, which my offline sources "
        "do not cover**: they hold the Python {version} documentation (the standard library) and "
        "the documents you ingest.",
        "third_party": "**This looks like a question about {topic}, a Python library outside the "
        "standard library**: my offline sources hold the Python {version} documentation only, and "
        "the documents you ingest.",
        "searched": "Searched",
        "nearest": "Closest, but not an answer (read them yourself)",
        "not_searched": "Not searched",
        "local": "the Python {version} documentation and your ingested documents",
        "next": "What you can do",
        "model": "Set a model for answers beyond quoting: `OPENAI_API_KEY`, a local server "
        "(Ollama, vLLM, llama.cpp, LM Studio) with `OPENAI_BASE_URL`, or `GOOGLE_API_KEY`.",
        "keys": "Add the web sources: Stack Overflow works online without a key "
        "(`STACKEXCHANGE_KEY` raises its quota), GitHub code needs `GITHUB_TOKEN`, official web "
        "docs need `TAVILY_API_KEY`.",
        "ingest": "Index your own documentation: `codeweaver ingest PATH`.",
        "draft": "Ask on Stack Overflow; a draft to fill in:",
        "title": "Title",
        "tried": "What I tried",
        "tried_text": "(the code or commands you ran, and what happened)",
        "example": "Minimal example",
        "example_text": "# the smallest code that shows the problem",
        "expected": "Expected",
        "expected_text": "(what you expected instead, and the exact error message if any)",
        "skipped": "skipped",
        "failed": "failed",
    },
    "ko": {
        "not_found": "**검색한 출처에서 이 질문의 답을 찾지 못했습니다. 추측하지 않겠습니다.**",
        "out_of_scope": "**{topic}에 관한 질문으로 보입니다. 오프라인 출처에는 없는 내용입니다**: "
        "오프라인 출처는 파이썬 {version} 문서(표준 라이브러리)와 직접 추가한 문서뿐입니다.",
        "third_party": "**표준 라이브러리 밖의 파이썬 라이브러리인 {topic}에 관한 질문으로 "
        "보입니다**: 오프라인 출처는 파이썬 {version} 문서와 직접 추가한 문서뿐입니다.",
        "searched": "검색한 곳",
        "nearest": "가장 가까웠지만 답은 아닌 문서 (직접 읽어 보세요)",
        "not_searched": "검색하지 못한 곳",
        "local": "파이썬 {version} 문서와 직접 추가한 문서",
        "next": "할 수 있는 일",
        "model": "인용을 넘어선 답변이 필요하면 모델을 설정하세요: `OPENAI_API_KEY`, "
        "`OPENAI_BASE_URL`로 로컬 서버(Ollama, vLLM, llama.cpp, LM Studio), 또는 "
        "`GOOGLE_API_KEY`.",
        "keys": "웹 출처 추가: Stack Overflow는 온라인이면 키 없이 동작하고(`STACKEXCHANGE_KEY`는 "
        "할당량을 늘립니다), GitHub 코드는 `GITHUB_TOKEN`, 공식 웹 문서는 `TAVILY_API_KEY`가 "
        "필요합니다.",
        "ingest": "직접 가진 문서를 추가하세요: `codeweaver ingest 경로`.",
        "draft": "Stack Overflow에 질문하세요. 채워 넣을 초안:",
        "title": "제목",
        "tried": "시도한 것",
        "tried_text": "(실행한 코드나 명령, 그리고 그 결과)",
        "example": "최소 예제",
        "example_text": "# 문제를 보여 주는 가장 작은 코드",
        "expected": "기대한 결과",
        "expected_text": "(대신 기대한 결과, 오류가 있다면 정확한 오류 메시지)",
        "skipped": "건너뜀",
        "failed": "실패",
    },
}


def _texts(language: str) -> dict[str, str]:
    return TEXTS.get(language, TEXTS["en"])


def _reason(record: ErrorRecord) -> str:
    """The first clause of a record's message: why, in a few words."""
    message = _ROUND.sub("", record.message)
    return truncate(message.split(" (", 1)[0].split("; ", 1)[0].split(" [", 1)[0], 80)


def source_lines(
    errors: list[ErrorRecord], language: str, *, skipped_only: bool = False
) -> tuple[str, str | None]:
    """What was searched and what was not (with why), from the run's error records.

    Args:
        errors: The run's error records.
        language: The user's language.
        skipped_only: Leave out sources that failed (a warning tells those), keep the skipped.
    """
    t = _texts(language)
    missing: dict[SourceName, str] = {}
    for record in errors:
        if record.source is None or record.source in missing or record.kind == "input":
            continue
        if skipped_only and record.kind != "skipped":
            continue
        state = t["skipped"] if record.kind == "skipped" else t["failed"]
        missing[record.source] = f"{SOURCE_LABELS[record.source]} ({state}: {_reason(record)})"
    searched = [
        t["local"].format(version=DOCS_VERSION) if name == "local" else label
        for name, label in SOURCE_LABELS.items()
        if name not in missing
    ]
    return ", ".join(searched) or "-", "; ".join(missing.values()) or None


def _nearest(evidence: list[Evidence]) -> str:
    """The closest pages as 'title <address>', each once: where to read, not what to believe."""
    shown: list[str] = []
    for item in evidence:
        # Titles and addresses come from retrieved pages: only text and a plain web address.
        plain_title = re.sub(r"^Python \d+\.\d+ docs: ", "", collapse_whitespace(item.title))
        title = escape_markdown(truncate(plain_title, 90))
        url = item.url if item.url and re.match(r"https?://[^\s<>]+$", item.url) else None
        entry = f"{title} <{url}>" if url else title
        if entry not in shown:
            shown.append(entry)
        if len(shown) == MAX_NEAREST:
            break
    return "; ".join(shown)


def _draft(question: str, t: dict[str, str]) -> list[str]:
    # The question is shown back as text: markup or HTML in it must not render.
    title = escape_markdown(truncate(collapse_whitespace(question), 150))
    return [
        f"  > **{t['title']}:** {title}",
        f"  > **{t['tried']}:** {t['tried_text']}",
        f"  > **{t['example']}:**",
        "  > ```python",
        f"  > {t['example_text']}",
        "  > ```",
        f"  > **{t['expected']}:** {t['expected_text']}",
    ]


def decline(
    question: str,
    analysis: Analysis,
    reason: DeclineReason,
    errors: list[ErrorRecord],
    *,
    topic: str | None = None,
    third_party: bool = False,
    relevance: float | None = None,
    nearest: list[Evidence] | None = None,
) -> Answer:
    """The answer that declines, with what was searched and what the user can do next.

    Args:
        question: The question as asked (the Stack Overflow draft's title).
        analysis: Its analysis (language, intent).
        reason: Why the engine declines.
        errors: The run's failures and skipped sources.
        topic: What an out-of-scope question is about (`Git`, `pandas`).
        third_party: The topic is a Python library outside the standard library.
        relevance: The best evidence's relevance, when it was below the floor.
        nearest: The evidence that came closest, best first, when it was below the floor: named
            (title and address, not quoted) so the user knows where to read.
    """
    t = _texts(analysis.language)
    if reason == "out_of_scope":
        lead = t["third_party" if third_party else "out_of_scope"].format(
            topic=topic or "another technology", version=DOCS_VERSION
        )
    else:
        lead = t["not_found"]
    searched, not_searched = source_lines(errors, analysis.language)
    lines = [lead, "", f"- **{t['searched']}:** {searched}."]
    if nearest:
        lines.append(f"- **{t['nearest']}:** {_nearest(nearest)}.")
    if not_searched:
        lines.append(f"- **{t['not_searched']}:** {not_searched}.")
    lines += [
        f"- **{t['next']}:**",
        f"  - {t['model']}",
        f"  - {t['keys']}",
        f"  - {t['ingest']}",
        f"  - {t['draft']}",
        "",
        *_draft(question, t),
    ]
    return Answer(
        text="\n".join(lines),
        intent=analysis.intent,
        language=analysis.language,
        grounded=False,
        offline=True,
        declined=True,
        decline_reason=reason,
        relevance=round(relevance, 4) if relevance is not None else None,
    )
