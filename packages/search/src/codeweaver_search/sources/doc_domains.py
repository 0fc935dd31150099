"""Which official documentation sites answer a question, from the technologies it names.

The technologies, the words that reveal each and the domains of their official documentation are
the engine's technology list (`codeweaver_engine/data/technologies.toml`): add a technology
there. Domains are the project's own documentation (no tutorials, no mirrors).
"""

from __future__ import annotations

import re

from codeweaver_engine.language.words import words
from codeweaver_engine.technologies import Technology, catalogue, technologies

_PLAIN_WORD = re.compile(r"[a-z0-9_]+")
_SYMBOLIC = re.compile(
    "|".join(
        re.escape(word)
        for t in technologies()
        for word in t.search_words
        if not _PLAIN_WORD.fullmatch(word)
    )
)
"""Words with a sign in them (`c++`, `c#`, `.net`, `node.js`), which word tokens split apart."""


def detect_stacks(text: str) -> list[Technology]:
    """Technologies the text mentions by their search words, in the technology list's order."""
    lowered = text.lower()
    tokens = set(words(lowered)) | set(_SYMBOLIC.findall(lowered))
    return [t for t in technologies() if t.search_words and not tokens.isdisjoint(t.search_words)]


def docs_domains(text: str, *, limit: int = 12) -> list[str]:
    """Official documentation domains for a question; the default set when none is named."""
    domains: list[str] = []
    for stack in detect_stacks(text):
        for domain in stack.domains:
            if domain not in domains:
                domains.append(domain)
    return domains[:limit] or list(catalogue().default_domains)


def github_language(text: str) -> str | None:
    """The GitHub `language:` qualifier for a question, when exactly one language is named."""
    languages = {s.github_language for s in detect_stacks(text) if s.github_language}
    return languages.pop() if len(languages) == 1 else None


def is_allowed(host: str, domains: list[str]) -> bool:
    """Whether a result's host is one of the domains or a subdomain of one."""
    host = host.lower().removeprefix("www.")
    return any(host == d.removeprefix("www.") or host.endswith("." + d) for d in domains)
