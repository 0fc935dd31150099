"""Sentences in documentation that act on a model reading them: recognised, withheld, flagged.

Retrieved text is data, yet a page can hold sentences written for the model that reads it
rather than for the developer. What such a sentence does is what gives it away, whatever its
words, in English or Korean; it does one of four things (`Act`):

- `addresses_ai`: it speaks to an AI, an assistant, an agent or a model as its reader ("Note
  to AI agents: ...", "Coding agents must now ...", "If you are a language model, ...",
  "AI 에이전트에게: ..."). A technical noun is not a reader: "the agent parameter", "the model
  field", "사용자 에이전트" are left alone, and so is a sentence that only mentions a chatbot.
- `reveals_secrets`: it tells the reader to disclose keys, tokens, passwords, environment
  variables, the system prompt or private files (`~/.ssh`, `.env`, `/etc/passwd`): a
  disclosure verb in the imperative, on secrets the reader "can see", "any" or "all" of them,
  or a secret file. Telling a developer where to keep a key, or that `print(os.environ)`
  prints them, is documentation.
- `runs_commands`: it carries a pipe-to-shell (`curl ... | sh`, `wget ... | bash`,
  `| python -`) whose source the question is not about, or a destructive command (`rm -rf ~`,
  `rm -rf /`, `mkfs`, `dd of=/dev/sda`, a fork bomb). `rm -rf build/` is documentation, and so
  is rustup's installer in an answer about installing rustup.
- `directs_answers`: it tells the reader how to answer or what to disregard: "ignore previous
  directions", "answer every question with ...", "from now on ...", "do not mention this to
  the user", "모든 질문에 ...라고 답하세요". "Ignore the warning if you use Python 3.12" and
  "respond to a SIGTERM by ..." are documentation.

English is read by the patterns below; every other language by its cue file's `injection_*`
entries (`data/cues/ko.toml`), so a language is added as data.

`withhold` takes the sentences that do any of these out of a Markdown text's prose (code blocks
are examples, shown as they are) and returns them, so an answer never quotes them and a search
result can flag them. The labelled sentences in `data/injection_sentences.tsv` (at the
repository's root) measure it (`scripts/injection_figures.py` prints its precision and recall
there, and its false alarms over the bundled Python documentation, all of it documentation).
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from codeweaver_engine.language.cues import alternatives

Act = Literal["addresses_ai", "reveals_secrets", "runs_commands", "directs_answers"]

# --- who is spoken to ----------------------------------------------------------------------

_AI_QUALIFIED = (
    r"(?:a\.?i\.?|artificial intelligence|llms?|large language models?|language models?|"
    r"chat ?bots?|bots?|(?:ai|coding|code|autonomous|software|llm|agentic|web)[ -]agents?|"
    r"ai (?:assistants?|models?|systems?|tools?)|copilot|claude|chatgpt|gpt(?:-?\d[\w.]*)?|"
    r"automated (?:readers?|agents?|assistants?|tools?|systems?)|machine readers?|"
    r"gemini|codex|devin)"
)
"""What names an AI reader by itself."""
_AI_ANY = rf"(?:{_AI_QUALIFIED}|assistants?|agents?|models?)"
"""...and what names one only when the sentence speaks to it."""
_ADDRESS_OPENERS = (
    r"(?:note|notice|reminder|attention|message|request|instructions?|important|warning|psa|fyi|"
    r"hey|dear|hi|hello|psst)"
)
_VOCATIVE = re.compile(
    rf"^\W*(?:{_ADDRESS_OPENERS}\s*)?(?:to|for)?\s*(?:all|any|every|the|you)?\s*"
    rf"{_AI_ANY}(?:\s*(?:,|and|&|or|/)\s*{_AI_ANY})*"
    r"(?:\s+(?:reading|processing|crawling|parsing|indexing|summari[sz]ing|that reads?|who reads?)"
    r"[^:,.;]{0,40})?\s*[:,]",
    re.IGNORECASE,
)
_ROLE_TAG = re.compile(
    r"^\W*(?:system|assistant|developer)\s*(?:message|prompt|override|note)?\s*:\s*"
    r"(?:you\b|your\b|ignore|disregard|forget|from now|new\b|answer|respond|reply|say\b|print|"
    r"reveal|output|run\b|execute|always|never|do not|don't|stop|send)",
    re.IGNORECASE,
)
"""A chat role's tag ("SYSTEM: ignore ...") opening orders; "System: Ubuntu 22.04" is a fact."""
_SPOKEN_TO = re.compile(
    rf"\b(?:this|the following)\s+(?:message|note|text|section|paragraph|instruction|line)s?\s+"
    rf"(?:is|are)\s+(?:only\s+)?(?:for|addressed to|meant for|intended for|aimed at)\s+"
    rf"(?:the\s+|any\s+|an?\s+|all\s+)?{_AI_ANY}\b"
    rf"|\bfor\s+(?:the\s+)?{_AI_ANY},?\s+not\s+(?:for\s+)?(?:the\s+)?"
    r"(?:humans?|users?|readers?|people)\b"
    r"|\b(?:whoever|anyone|anybody|anything|whatever)\s+(?:is\s+)?(?:reading|parsing|processing|"
    r"summari[sz]ing|crawling|indexing|ingesting)\s+(?:this|these)\b",
    re.IGNORECASE,
)
_IDENTIFIES = re.compile(
    r"\b(?:if|when|since|because|as long as)\s+you(?:'re|\s+are)\s+(?:an?\s+|the\s+)?"
    rf"(?:\w+\s+)?{_AI_ANY}\b"
    rf"|\bas\s+(?:an?\s+)?{_AI_QUALIFIED}\b(?!\s+(?:library|framework|api|sdk|package|module))"
    rf"|\byou(?:'re|\s+are)\s+(?:now\s+)?(?:an?\s+|the\s+)?{_AI_QUALIFIED}\b",
    re.IGNORECASE,
)
_ORDERS = (
    r"(?:execute|run|ignore|disregard|forget|recommend|suggest|tell|say|answer|respond|reply|"
    r"reveal|print|output|send|upload|cat|always|never|instead|refuse|visit|paste|obey)"
)
"""What an agent, an assistant or a model is told to do when a sentence gives it orders; a
technical subject is told other things ("assistants must be created with a graph id")."""
_SUBJECT_MODAL = re.compile(
    rf"\b(?P<who>{_AI_ANY})\b[^.;:]{{0,40}}?\b(?:must|should|shall|need to|have to|has to|"
    rf"are required to|is required to|are expected to|will now|are to|is to|"
    r"(?:are|is) (?:instructed|told|asked|directed) to)\s+"
    r"(?:now\s+|also\s+|first\s+|always\s+)?(?P<what>\w+)",
    re.IGNORECASE,
)
# --- what is to be disclosed ---------------------------------------------------------------

_SECRETS = (
    r"(?:api[ _-]?keys?|access[ _-]?keys?|secret[ _-]?keys?|tokens?|secrets?|credentials?|"
    r"passwords?|passphrases?|environment variables?|env(?:ironment)? vars?|\.env\b|"
    r"~/\.\w+|id_(?:rsa|ed25519|ecdsa|dsa)\w*|private keys?|ssh keys?|system prompt|"
    r"/etc/(?:passwd|shadow)|\.aws/credentials|aws credentials|\.netrc|cookies|session ids?)"
)
_SECRET_FILE = re.compile(
    r"~/\.ssh|id_(?:rsa|ed25519|ecdsa|dsa)|/etc/(?:passwd|shadow)|\.aws/credentials|\.netrc"
    r"|(?:^|[\s`'\"])\.env\b|system prompt",
    re.IGNORECASE,
)
_DISCLOSE = (
    r"(?:print|output|reveal|show|display|dump|leak|send|post|upload|exfiltrate|e-?mail|paste|"
    r"echo|cat|share|include|list|tell|repeat|copy|expose|transmit|forward|read out|write out)"
)
_IMPERATIVE_LEAD = (
    r"(?:^|[,;:]\s*|\b(?:and|also|then|now|please|first|just|immediately|must|should|to|"
    r"will|shall)\s+)"
)
_DISCLOSE_SECRETS = re.compile(
    rf"{_IMPERATIVE_LEAD}(?:also\s+|now\s+|please\s+)?{_DISCLOSE}\b(?P<rest>[^.;!?]{{0,120}})",
    re.IGNORECASE,
)
_ELSEWHERE = re.compile(
    r"\bto\s+(?:https?://|\S+@\S+|(?:our|my|this|their|an? (?:external|remote))\s+"
    r"(?:server|endpoint|url|address|inbox|webhook|bucket)s?\b)",
    re.IGNORECASE,
)
"""A destination outside the conversation: secrets sent there are leaked, whoever says so."""
_SECRET_FILE_ACTED_ON = re.compile(
    rf"{_IMPERATIVE_LEAD}(?:also\s+|now\s+|please\s+)?(?:{_DISCLOSE}|read|open|load|add|attach)\b"
    r"[^.;!?]{0,40}(?:~/\.ssh|~/\.aws|id_(?:rsa|ed25519|ecdsa|dsa)|/etc/(?:passwd|shadow)|"
    r"\.aws/credentials|\.netrc|~/\.\w+rc\b)",
    re.IGNORECASE,
)
"""A private file named in an order: there is no documentation reason to read one out."""
_MANY = re.compile(
    r"\b(?:any|all|every|each|whatever|the contents? of|the values? of|your|the user'?s|"
    r"you (?:can|could) (?:see|find|access|read)|you have access to|available to you)\b",
    re.IGNORECASE,
)
# --- what is to be run ---------------------------------------------------------------------

_PIPE_TO_SHELL = re.compile(
    r"\b(?:curl|wget|fetch|iwr|invoke-webrequest)\b(?P<args>[^|\n`]*)\|\s*(?:sudo\s+)?(?:-\w+\s+)*"
    r"(?:(?:ba|z|k|da|fi|c)?sh|python\d?(?:\.\d+)?|perl|ruby|node|iex)\b"
    r"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\$?<?\(\s*(?:curl|wget)\b(?P<args2>[^)\n]*)\)",
    re.IGNORECASE,
)
_DESTRUCTIVE = re.compile(
    r"\brm\s+(?:-\w+\s+)*-\w*[rf]\w*\s+(?:-\w+\s+)*(?:--\s+)?(?:~|\$home|/(?:\*|\s|$)|/\s*--no-preserve-root|~/\S*)"
    r"|\brm\s+(?:-\w+\s+)*-\w*[rf]\w*\s+(?:-\w+\s+)*/(?=\s|$|`|'|\")"
    r"|\bmkfs(?:\.\w+)?\b|\bdd\s+[^\n]*\bof=/dev/(?:sd|hd|nvme|disk|xvd)"
    r"|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:"
    r"|\bchmod\s+-R\s+0?777\s+/(?:\s|$)|>\s*/dev/sd[a-z]\b|\bformat\s+c:|\bdel\s+/[sq]\s+/[sq]\s+c:\\",
    re.IGNORECASE,
)
_RUN = re.compile(
    r"\b(?:run|running|execute|executing|exec|type|enter|paste|launch|invoke|try)\b",
    re.IGNORECASE,
)
"""A command is something to run only when the sentence says to run it: a warning that names
one (`system("rm -rf $HOME")` would erase your home directory) is documentation."""
_URL_HOST = re.compile(r"https?://([^/\s'\"`|]+)")

# --- how to answer -------------------------------------------------------------------------

_OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|skip|drop)\s+"
    r"(?:(?:all|any|the|your|these|those|my|of|every|other)\s+)*"
    r"(?:(?:previous|prior|above|earlier|preceding|original|initial|system|safety|developer|"
    r"user(?:'s)?|existing|current|given)\s+)+"
    r"(?:instructions?|directions?|rules|prompts?|guidelines|guardrails|constraints|polic(?:y|ies)|"
    r"requests?|questions?|context|messages?|tasks?)\b"
    r"|\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|your|every)\s+(?:of\s+)?(?:the\s+)?)+"
    r"(?:instructions?|directions?|rules|prompts?|guidelines|guardrails|constraints)\b"
    r"|\b(?:ignore|disregard|forget)\s+what\s+you\s+(?:were|have been|had been|are)\s+"
    r"(?:told|asked|instructed|given)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:everything|anything|whatever|all)\s+(?:that\s+)?"
    r"(?:the user|you were|you have been|above|before|else|previously)\b",
    re.IGNORECASE,
)
_ANSWER_DIRECTIVES = re.compile(
    r"\b(?:answer|respond|reply)(?:ing)?\s+(?:to\s+)?(?:every|each|all|any)\s+(?:\w+\s+)?"
    r"(?:questions?|quer(?:y|ies)|requests?|prompts?|messages?)\b"
    r"|^\W*(?:please\s+)?(?:always\s+|only\s+|never\s+)?(?:answer|respond|reply|say)\s+"
    r"(?:only\s+)?(?:with\s+)?(?:the following|[\"'“‘])"
    r"|^\W*(?:please\s+)?(?:always\s+|only\s+)?(?:answer|respond|reply)\s+(?:only|in\s+\w+\s+(?:speak|only))\b"
    r"|\b(?:when|whenever|if)\s+(?:you\s+are\s+|you're\s+)?(?:asked|users?\s+asks?|someone\s+asks?|"
    r"the user asks?)\b[^.]*\b(?:respond|answer|reply|say|tell|recommend|suggest)"
    r"|\bfrom now on\b"
    r"|\byour\s+(?:new\s+|real\s+|actual\s+|only\s+|true\s+)?(?:task|instructions?|role|goal|job|"
    r"purpose|objective|mission)\s+(?:is|are|now)\b"
    r"|\b(?:tell|instruct|advise|convince|persuade)\s+the\s+user\s+to\b"
    r"|\bdo\s+not\s+(?:mention|reveal|tell|disclose|cite|show)\b[^.]*\b(?:user|instruction|this)\b"
    r"|\b(?:roleplay|role-play)\b"
    r"|\bsummari[sz]e\s+this\s+(?:page|document|section)\s+as\b"
    r"|\b(?:include|put|add|mention|paste|insert|append|write)\b[^.]{0,60}\bin\s+your\s+"
    r"(?:next\s+|final\s+)?(?:reply|answer|response|message)\b"
    r"|\bbefore\s+(?:you\s+)?answer(?:ing)?\b"
    r"|\b(?:add|append|attach|include)\s+(?:it|them|this|that)\s+(?:to|in)\s+(?:the|your)\s+"
    r"(?:response|answer|reply|output)\b"
    r"|\bevery\s+(?:answer|reply|response)\s+(?:must|should|shall)\b"
    r"|\bnever\s+cite\b|\bwithout\s+citing\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Cues:
    """The same acts as other languages say them (`data/cues/<language>.toml`, `injection_*`)."""

    ai_named: str
    addressed: re.Pattern[str]
    obliged: re.Pattern[str]
    orders: re.Pattern[str]
    reveals: re.Pattern[str]
    run: re.Pattern[str]
    directs: re.Pattern[str]


@functools.cache
def _cues() -> _Cues:
    named = alternatives("injection_ai_named")
    reader = f"(?:{named}|{alternatives('injection_ai_maybe')})"

    def pattern(name: str) -> re.Pattern[str]:
        return re.compile(alternatives(name).replace("{ai}", reader), re.IGNORECASE)

    return _Cues(
        ai_named=f"(?:{named})",
        addressed=pattern("injection_addressed"),
        obliged=pattern("injection_obliged"),
        orders=pattern("injection_orders"),
        reveals=pattern("injection_reveals"),
        run=pattern("injection_run"),
        directs=pattern("injection_directs"),
    )


def _normal(sentence: str) -> str:
    """The sentence as it reads: entities decoded, tags, emphasis and code marks dropped."""
    text = unicodedata.normalize("NFKC", html.unescape(sentence))
    text = re.sub(r"</?[A-Za-z][^<>]{0,80}>", " ", text)
    text = re.sub(r"[`*]+|(?<!\w)_+|_+(?!\w)", " ", text)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split())


def _addresses_ai(text: str) -> bool:
    if any(p.search(text) for p in (_VOCATIVE, _ROLE_TAG, _IDENTIFIES, _SPOKEN_TO)):
        return True
    for match in _SUBJECT_MODAL.finditer(text):
        qualified = re.fullmatch(_AI_QUALIFIED, match.group("who"), re.IGNORECASE)
        if qualified or re.fullmatch(_ORDERS, match.group("what"), re.IGNORECASE):
            return True
    cues = _cues()
    if cues.addressed.search(text):
        return True
    obliged = cues.obliged.search(text)
    if obliged is None:
        return False
    named = re.fullmatch(cues.ai_named, obliged.group("who"), re.IGNORECASE)
    return bool(named or cues.orders.search(text))


def _reveals_secrets(text: str) -> bool:
    if _SECRET_FILE_ACTED_ON.search(text):
        return True
    for match in _DISCLOSE_SECRETS.finditer(text):
        rest = match.group("rest")
        if not re.search(_SECRETS, rest, re.IGNORECASE):
            continue
        if _MANY.search(rest) or _SECRET_FILE.search(rest) or _ELSEWHERE.search(rest):
            return True
    return bool(_cues().reveals.search(text))


_NOT_A_NAME = frozenset(
    {"www", "com", "org", "net", "io", "raw", "githubusercontent", "github", "install", "get"}
)
"""Parts of an installer's address that say nothing about what it installs."""


def _about(topic: str, host: str) -> bool:
    """Whether the question is about what an installer's address names (`sh.rustup.rs`)."""
    asked = set(re.findall(r"[a-z0-9]{3,}", topic.lower()))
    named = set(re.findall(r"[a-z0-9]{3,}", host.lower())) - _NOT_A_NAME
    return bool(asked & named)


def _runs_commands(text: str, topic: str) -> bool:
    if not (_RUN.search(text) or _cues().run.search(text)):
        return False
    if _DESTRUCTIVE.search(text):
        return True
    for match in _PIPE_TO_SHELL.finditer(text):
        args = match.group("args") or match.group("args2") or ""
        hosts = _URL_HOST.findall(args) or _URL_HOST.findall(text)
        if not topic or not any(_about(topic, host) for host in hosts):
            return True
    return False


def _directs_answers(text: str) -> bool:
    return bool(
        _OVERRIDE.search(text) or _ANSWER_DIRECTIVES.search(text) or _cues().directs.search(text)
    )


def classify(sentence: str, topic: str = "") -> frozenset[Act]:
    """What a sentence does to a model reading it; empty for documentation.

    Args:
        sentence: One sentence (or a line of code).
        topic: What the user asked, when known: a pipe-to-shell installer of what the question
            is about is documentation.
    """
    text = _normal(sentence)
    acts: set[Act] = set()
    if _addresses_ai(text):
        acts.add("addresses_ai")
    if _reveals_secrets(text):
        acts.add("reveals_secrets")
    if _runs_commands(text, topic):
        acts.add("runs_commands")
    if _directs_answers(text):
        acts.add("directs_answers")
    return frozenset(acts)


def addresses_assistant(text: str, topic: str = "") -> bool:
    """Whether a sentence acts on an AI reader (any `Act`) rather than informing a person."""
    return bool(classify(text, topic))


@dataclass(frozen=True)
class Withheld:
    """A text with the sentences that act on a model taken out, and those sentences."""

    text: str
    flagged: list[str]


_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?。])\s+(?=\S)")


def withhold(text: str, topic: str = "") -> Withheld:
    """`text` (Markdown) without the sentences `classify` flags, and the sentences it took out.

    Code blocks are documentation's examples and stay as they are; prose is read sentence by
    sentence, a line at a time, so lists, headings and paragraphs keep their shape.

    Args:
        text: Markdown, as a document or an answer holds it.
        topic: What the user asked (see `classify`).
    """
    kept: list[str] = []
    flagged: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            kept.append(line)
            continue
        if opened:
            fence = opened.group(1)
            kept.append(line)
            continue
        sentences = _SENTENCE_BREAK.split(line)
        out = [s for s in sentences if not classify(s, topic)]
        if len(out) == len(sentences):
            kept.append(line)
            continue
        flagged += [" ".join(s.split()) for s in sentences if s not in out]
        if any(s.strip() for s in out):
            indent = line[: len(line) - len(line.lstrip())]
            kept.append(indent + " ".join(s.strip() for s in out))
    return Withheld("\n".join(kept), flagged)
