"""The offline engine of the search subgraph: no language model, deterministic.

Rerank by embedding cosine with the sources' own signals as a small prior; judge sufficiency
from the best scores and how many of the question's content words the evidence covers; refine
the query with heuristics; summarise each item with its sentences that best match the question.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from codeweaver_engine.language.injection import addresses_assistant
from codeweaver_engine.language.korean import english_gloss
from codeweaver_engine.language.script import detect_language
from codeweaver_engine.language.words import content_words, split_sentences, stem, truncate, words
from codeweaver_engine.libraries import keep_named
from codeweaver_engine.policy import source_prior
from codeweaver_runtime import Embedder
from codeweaver_schema import Evidence, Intent, LocalMeta, StackOverflowMeta, Sufficiency

EVIDENCE_CHARS = 1500
"""Characters of an item that are embedded and shown to a model: its most relevant part."""
MAX_ASPECTS = 5

_IDENTIFIER = re.compile(r"[._]|[a-z][A-Z]|\d|\(\)")


def usable(evidence: Evidence) -> bool:
    """Kept evidence has content and a locator: a link, or for local chunks a file."""
    if not evidence.content.strip():
        return False
    if evidence.url:
        return True
    return isinstance(evidence.meta, LocalMeta) and bool(evidence.meta.file)


def evidence_text(evidence: Evidence) -> str:
    """The part of an item that is embedded and judged."""
    return f"{evidence.title}\n{truncate(evidence.content, EVIDENCE_CHARS)}"


def signal_prior(evidence: Evidence, intent: Intent, *, intent_policy: bool) -> float:
    """A small bonus from the source's own signals and the intent's policy (at most ~0.1)."""
    prior = source_prior(intent, evidence.source, enabled=intent_policy)
    meta = evidence.meta
    if isinstance(meta, StackOverflowMeta):
        prior += 0.03 if meta.is_accepted else 0.0
        prior += min(0.03, math.log10(1 + max(meta.score, 0)) / 100)
    return prior


async def rank(
    question: str,
    items: Sequence[Evidence],
    embedder: Embedder,
    *,
    intent: Intent,
    intent_policy: bool,
) -> dict[str, float]:
    """Rerank scores by evidence id: similarity to the question plus the prior.

    Raises:
        EmbeddingError: the embedder failed (the caller falls back to `lexical_rank`).
    """
    if not items:
        return {}
    # Local documents come ranked by meaning against this question already (the bundled
    # documentation with its task index, ingested chunks with their hybrid score): their score
    # is kept. The others are compared with the question here.
    others = [e for e in items if e.source != "local"]
    similarity = {e.id: e.score for e in items if e.source == "local"}
    if others:
        query = english_terms(question) or question
        vectors = await embedder.embed([query, *(evidence_text(e) for e in others)])
        cosines = np.asarray(vectors[1:] @ vectors[0], dtype=np.float64)
        similarity |= {e.id: float(c) for e, c in zip(others, cosines, strict=True)}
    return {
        e.id: round(similarity[e.id] + signal_prior(e, intent, intent_policy=intent_policy), 6)
        for e in items
    }


def lexical_rank(
    question: str, items: Sequence[Evidence], *, intent: Intent, intent_policy: bool
) -> dict[str, float]:
    """Rerank scores without embeddings: share of the question's content words an item has."""
    wanted = set(content_words(question))
    scores: dict[str, float] = {}
    for e in items:
        have = set(words(evidence_text(e)))
        overlap = len(wanted & have) / len(wanted) if wanted else 0.0
        scores[e.id] = round(overlap + signal_prior(e, intent, intent_policy=intent_policy), 6)
    return scores


def ranked(items: Sequence[Evidence]) -> list[Evidence]:
    """Items best first: rerank score, then the source's score, then id for a stable order."""
    return sorted(
        items,
        key=lambda e: (
            -(e.rerank_score if e.rerank_score is not None else -1.0),
            -e.score,
            e.id,
        ),
    )


def aspect_words(question: str) -> list[str]:
    """The question's content words that evidence should cover, in order, once each.

    Evidence is mostly English: for a question in another script, its Latin-script terms
    (identifiers, library names) are what evidence can be checked against, when it has some.
    """
    terms = list(dict.fromkeys(content_words(question)))
    latin = [t for t in terms if t.isascii()]
    return latin or terms


def judge(question: str, top: Sequence[Evidence], *, threshold: float) -> Sufficiency:
    """Sufficiency from relevance (the best rerank scores) and coverage of the question's words."""
    aspects = aspect_words(question)
    if not top:
        return Sufficiency(
            score=0.0,
            sufficient=False,
            missing_aspects=aspects[:MAX_ASPECTS],
            reason="no evidence was retrieved",
        )
    best = sorted((e.rerank_score or 0.0 for e in top), reverse=True)[:3]
    # MiniLM cosines of a question and a real answer sit between ~0.2 (unrelated) and ~0.7.
    relevance = min(1.0, max(0.0, (sum(best) / len(best) - 0.2) / 0.5))
    # Plurals only: with verb endings folded too ("call" covered by "called") fewer questions
    # get the second round that finds their answer.
    seen = {stem(w, verbs=False) for e in top for w in words(evidence_text(e))}
    missing = [a for a in aspects if stem(a, verbs=False) not in seen]
    coverage = 1.0 - len(missing) / len(aspects) if aspects else 1.0
    score = round(0.5 * relevance + 0.5 * coverage, 4)
    return Sufficiency(
        score=score,
        sufficient=score >= threshold,
        missing_aspects=missing[:MAX_ASPECTS],
        reason=f"relevance {relevance:.2f}, coverage {coverage:.2f} of {len(aspects)} terms",
    )


def _key_terms(question: str, limit: int) -> list[str]:
    terms = aspect_words(question)
    specific = sorted(terms, key=lambda t: (not _IDENTIFIER.search(t), terms.index(t)))
    return specific[:limit]


def normalise_query(query: str) -> str:
    """The form under which two queries count as the same (and raw responses are memoised)."""
    return " ".join(words(query))


def english_terms(question: str) -> str:
    """The English search terms of a question in another language, in its order.

    The identifiers and words it writes in Latin script, and the glossary's English for its
    other words; '' for an English question, or when there are none.
    """
    if detect_language(question) == "en":
        return ""
    return english_gloss(question) or " ".join(
        dict.fromkeys(t for t in content_words(question) if t.isascii())
    )


def refine(
    question: str,
    *,
    sufficiency: Sufficiency | None,
    tried: Sequence[str],
) -> tuple[str, str] | None:
    """The next query and why, or None when every strategy has been tried.

    In order: the question's English terms for a question in another language; the missing
    aspects with the question's key terms (more specific); the key terms alone (more general).
    """
    seen = {normalise_query(q) for q in tried}
    missing = list(sufficiency.missing_aspects) if sufficiency else []
    candidates: list[tuple[str, str]] = []
    if english := english_terms(question):
        candidates.append((english, "English terms of a non-English question"))
    if missing:
        anchors = [t for t in _key_terms(question, 3) if t not in missing]
        candidates.append(
            (
                " ".join([*anchors, *missing]),
                "more specific: added the missing aspects " + ", ".join(missing),
            )
        )
    for size in (4, 3, 2):
        candidates.append((" ".join(_key_terms(question, size)), "more general: key terms only"))
    for query, reason in candidates:
        query = keep_named(question, query) if query.strip() else query
        if query.strip() and normalise_query(query) not in seen:
            return query, reason
    return None


def summarise(question: str, evidence: Evidence, *, max_chars: int = 400) -> str:
    """An extractive summary: the item's sentences (or code block) that best match the question."""
    wanted = {stem(w) for w in content_words(question)}
    sentences = split_sentences(evidence.content)
    scored = []
    for index, sentence in enumerate(sentences):
        if addresses_assistant(sentence, question):
            continue
        have = {stem(w) for w in words(sentence)}
        scored.append((-len(wanted & have), index, sentence))
    if not scored:
        return ""
    best = sorted(sorted(scored)[:2], key=lambda item: item[1])
    return truncate(" ".join(sentence for _, _, sentence in best), max_chars)
