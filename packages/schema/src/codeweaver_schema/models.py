"""Pydantic models shared by every CodeWeaver graph.

They are the vocabulary of the state: what a plan, a routing decision, a piece of evidence or an
answer is. They carry no behaviour beyond validation and small pure helpers, so that checkpoints
serialise them and any package can read them without pulling in I/O.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

PlanKind = Literal["single_topic", "multiple_questions", "too_many"]
Route = Literal["single", "multi", "too_many", "empty"]
QuestionType = Literal["clarification", "new_topic", "independent"]
Intent = Literal["debugging", "learning", "code_review"]
SourceName = Literal["stackoverflow", "github", "docs", "local"]
DeclineReason = Literal[
    "out_of_scope", "below_relevance_floor", "no_evidence", "library_not_indexed"
]
"""Why an answer declined: a technology the sources do not cover, evidence too weak to answer,
or no evidence at all."""
ErrorKind = Literal[
    "skipped",
    "timeout",
    "http",
    "rate_limited",
    "malformed",
    "model",
    "embedding",
    "store",
    "input",
]

DOCUMENTS_NOT_SEARCHED = "your ingested documents were not searched"
"""How the local source's error begins when its reference packs answered and the user's ingested
documents did not (a store another process holds): the rest of the source was searched."""
SOURCE_LABELS: dict[SourceName, str] = {
    "stackoverflow": "Stack Overflow",
    "github": "GitHub code",
    "docs": "Official docs",
    "local": "Local documents",
}


def new_id() -> str:
    """Return a fresh random identifier for records that have no natural key."""
    return uuid.uuid4().hex


def stable_id(*parts: str) -> str:
    """Return a deterministic identifier from the parts that make a record unique."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return digest[:24]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Analysis(_Model):
    """What the single question is, in the context of the thread."""

    question_type: QuestionType
    should_cache: bool
    standalone_question: str = Field(
        description="The question rewritten to stand alone: the cache key and the search base."
    )
    intent: Intent
    language: str = Field(description="ISO 639-1 code of the user's language, e.g. 'en', 'ko'.")
    reason: str = ""


class Plan(_Model):
    """How many questions the user asked this turn, and which ones."""

    kind: PlanKind
    questions: list[str] = Field(description="The detected questions, in the user's order.")
    reason: str = Field(description="Why this kind was chosen.")
    guard_applied: bool = Field(
        default=False, description="True when the deterministic three-or-more guard decided."
    )
    analyses: list[Analysis] = Field(
        default_factory=list,
        description="Per-question analysis when one model call planned and analysed together.",
    )


class RoutingDecision(_Model):
    """Where the run goes after planning, and why; the conditional edge only reads this."""

    route: Route
    reason: str


class StackOverflowMeta(_Model):
    """Signals that make a Stack Overflow answer trustworthy or not."""

    kind: Literal["stackoverflow"] = "stackoverflow"
    question_id: int
    answer_id: int | None = None
    is_accepted: bool = False
    score: int = 0
    tags: list[str] = Field(default_factory=list)
    created: int | None = Field(default=None, description="Unix time of creation.")
    last_activity: int | None = Field(default=None, description="Unix time of last activity.")
    author: str | None = None
    license: str = "CC BY-SA 4.0"


class GitHubMeta(_Model):
    """Where a code hit lives and how much to trust its repository."""

    kind: Literal["github"] = "github"
    repository: str
    path: str
    stars: int | None = None
    license: str | None = None
    fragments: list[str] = Field(default_factory=list)
    language: str | None = None


class DocsMeta(_Model):
    """An official documentation page."""

    kind: Literal["docs"] = "docs"
    domain: str
    section: str | None = None
    published: str | None = None


class LocalMeta(_Model):
    """A chunk of an ingested document."""

    kind: Literal["local"] = "local"
    doc_id: str
    file: str
    section: str | None = None
    page: int | None = None
    chunk_index: int = 0
    neighbour_of: str | None = Field(
        default=None, description="Evidence id this chunk was added next to, if expanded."
    )
    api: str | None = Field(
        default=None,
        description="The qualified name of the API this chunk documents (`os.path.getsize`), "
        "when it is one API's entry of a reference; its content then starts with the API's "
        "signatures in a code block.",
    )
    task: str | None = Field(
        default=None,
        description="The task-index phrasing that matched the question, when one decided the "
        "chunk's score; chunks matched through one task are alternatives of each other.",
    )
    pack: str | None = Field(
        default=None,
        description="The documentation pack the chunk is from (`python`, `pandas`); None for "
        "the user's ingested documents.",
    )
    version: str | None = Field(
        default=None, description="The version that pack documents (`3.11`, `3.1.1`)."
    )


EvidenceMeta = Annotated[
    StackOverflowMeta | GitHubMeta | DocsMeta | LocalMeta, Field(discriminator="kind")
]


class Evidence(_Model):
    """One retrieved item, with its source's own signals kept intact."""

    id: str = Field(description="Stable id: the same item from any query gets the same id.")
    source: SourceName
    title: str
    content: str
    url: str | None = None
    score: float = Field(default=0.0, description="The source's retrieval relevance.")
    rerank_score: float | None = None
    summary: str | None = None
    meta: EvidenceMeta

    @property
    def locator(self) -> str:
        """A URL, or for local documents the file and section, to show next to a citation."""
        if self.url:
            return self.url
        if isinstance(self.meta, LocalMeta):
            where = self.meta.file
            if self.meta.section:
                where += f" § {self.meta.section}"
            if self.meta.page is not None:
                where += f" (p. {self.meta.page})"
            return where
        return self.title


class Citation(_Model):
    """A numbered reference `[n]` in an answer, resolved to one evidence item."""

    n: int
    evidence_id: str
    title: str
    source: SourceName
    url: str | None = None
    file: str | None = None
    locator: str
    pack: str | None = Field(
        default=None,
        description="The documentation pack quoted (`python`, `pandas`); None for web sources "
        "and ingested documents.",
    )
    version: str | None = Field(
        default=None, description="The version of that pack (`3.11`, `3.1.1`)."
    )

    @classmethod
    def of(cls, n: int, evidence: Evidence) -> Citation:
        """Citation number `n` for an evidence item."""
        local = evidence.meta if isinstance(evidence.meta, LocalMeta) else None
        return cls(
            n=n,
            evidence_id=evidence.id,
            title=evidence.title,
            source=evidence.source,
            url=evidence.url,
            file=local.file if local else None,
            locator=evidence.locator,
            pack=local.pack if local else None,
            version=local.version if local else None,
        )


class Answer(_Model):
    """The answer to one question, as delivered."""

    text: str = Field(description="Markdown with inline [n] citations.")
    citations: list[Citation] = Field(default_factory=list)
    intent: Intent | None = None
    language: str = "en"
    grounded: bool = False
    degraded: bool = Field(default=False, description="True when sources or the model failed.")
    warning: str | None = None
    offline: bool = Field(default=False, description="True when no language model was used.")
    from_cache: bool = False
    declined: bool = Field(
        default=False,
        description="True when the engine found nothing that answers the question and said so "
        "instead of quoting passages that do not answer it; a decline is never cached.",
    )
    decline_reason: DeclineReason | None = None
    relevance: float | None = Field(
        default=None,
        description="How sure the offline engine is of its answer, compared with the "
        "calibrated floor: its best evidence's relevance score (for an installed library's "
        "answer, moved by how much of the question the answer speaks of); None for model "
        "answers.",
    )


class Grade(_Model):
    """Whether an answer is grounded in the evidence it cites."""

    grounded: bool
    unresolved_citations: list[int] = Field(default_factory=list)
    unsupported_claims: list[str] = Field(default_factory=list)
    reason: str = ""


class ErrorRecord(_Model):
    """A failure that the run survived: a skipped source, a timeout, a model error."""

    id: str = Field(default_factory=new_id)
    node: str
    kind: ErrorKind
    message: str
    source: SourceName | None = None
    at: float = Field(default_factory=time.time)


class FlowStep(_Model):
    """One node's run in this turn, for the per-run flow log."""

    id: str = Field(default_factory=new_id)
    node: str
    started_at: float
    duration_ms: float
    note: str = ""


class Sufficiency(_Model):
    """The judge's verdict on whether the evidence answers the question."""

    score: float = Field(ge=0.0, le=1.0)
    sufficient: bool
    missing_aspects: list[str] = Field(default_factory=list)
    reason: str = ""


class CacheDecision(_Model):
    """Why a cache lookup hit or missed: every lookup records one."""

    hit: bool
    reason: str
    entry_id: str | None = None
    similarity: float | None = None
    matched_question: str | None = None


class QuestionAnswer(_Model):
    """One question's answer inside a multi-question turn."""

    id: str
    index: int
    question: str
    answer: Answer
    errors: list[ErrorRecord] = Field(default_factory=list)
