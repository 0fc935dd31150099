"""Which official documentation sites answer a question, from the languages and libraries in it.

A maintained mapping: each entry names the words that reveal a technology and the domains of its
official documentation. Add an entry when CodeWeaver should know another stack; keep domains to
the project's own documentation (no tutorials, no mirrors).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codeweaver_engine.language.words import words


@dataclass(frozen=True)
class Stack:
    """A technology the question mentions: its GitHub language name and its docs domains."""

    name: str
    triggers: frozenset[str]
    domains: tuple[str, ...]
    github_language: str | None = None


def _stack(
    name: str, triggers: str, domains: tuple[str, ...], github_language: str | None = None
) -> Stack:
    return Stack(name, frozenset(triggers.split()), domains, github_language)


STACKS: tuple[Stack, ...] = (
    _stack(
        "python",
        "python python3 pip asyncio pep dict tuple",
        ("docs.python.org",),
        "Python",
    ),
    _stack("django", "django", ("docs.djangoproject.com",), "Python"),
    _stack("flask", "flask werkzeug jinja jinja2", ("flask.palletsprojects.com",), "Python"),
    _stack("fastapi", "fastapi starlette", ("fastapi.tiangolo.com",), "Python"),
    _stack("pydantic", "pydantic", ("docs.pydantic.dev",), "Python"),
    _stack("numpy", "numpy ndarray", ("numpy.org",), "Python"),
    _stack("pandas", "pandas dataframe", ("pandas.pydata.org",), "Python"),
    _stack("pytest", "pytest fixture fixtures", ("docs.pytest.org",), "Python"),
    _stack("sqlalchemy", "sqlalchemy", ("docs.sqlalchemy.org",), "Python"),
    _stack("pytorch", "pytorch torch", ("pytorch.org",), "Python"),
    _stack("tensorflow", "tensorflow keras", ("www.tensorflow.org",), "Python"),
    _stack(
        "langchain",
        "langchain langgraph langsmith",
        ("python.langchain.com", "langchain-ai.github.io", "docs.langchain.com"),
        "Python",
    ),
    _stack(
        "javascript",
        "javascript js ecmascript dom fetch promise css html webapi",
        ("developer.mozilla.org",),
        "JavaScript",
    ),
    _stack(
        "typescript",
        "typescript ts tsconfig",
        ("www.typescriptlang.org", "developer.mozilla.org"),
        "TypeScript",
    ),
    _stack("node", "node nodejs node.js npm", ("nodejs.org",), "JavaScript"),
    _stack("react", "react jsx usestate useeffect", ("react.dev",), "JavaScript"),
    _stack("vue", "vue vuejs", ("vuejs.org",), "JavaScript"),
    _stack("angular", "angular", ("angular.dev",), "TypeScript"),
    _stack("nextjs", "next.js nextjs", ("nextjs.org",), "JavaScript"),
    _stack("rust", "rust cargo rustc", ("doc.rust-lang.org", "docs.rs"), "Rust"),
    _stack("go", "golang goroutine", ("go.dev", "pkg.go.dev"), "Go"),
    _stack("java", "java jvm jdk", ("docs.oracle.com",), "Java"),
    _stack("spring", "spring springboot", ("docs.spring.io",), "Java"),
    _stack("kotlin", "kotlin", ("kotlinlang.org",), "Kotlin"),
    _stack("csharp", "c# csharp .net dotnet", ("learn.microsoft.com",), "C#"),
    _stack("cpp", "c++ cpp stl", ("en.cppreference.com",), "C++"),
    _stack("c", "malloc printf", ("en.cppreference.com",), "C"),
    _stack("swift", "swift swiftui", ("developer.apple.com", "docs.swift.org"), "Swift"),
    _stack("ruby", "ruby gem", ("ruby-doc.org",), "Ruby"),
    _stack(
        "rails", "rails activerecord", ("guides.rubyonrails.org", "api.rubyonrails.org"), "Ruby"
    ),
    _stack("php", "php composer", ("www.php.net",), "PHP"),
    _stack("postgres", "postgres postgresql psql", ("www.postgresql.org",), None),
    _stack("mysql", "mysql", ("dev.mysql.com",), None),
    _stack("sqlite", "sqlite sqlite3", ("www.sqlite.org",), None),
    _stack("redis", "redis", ("redis.io",), None),
    _stack("docker", "docker dockerfile", ("docs.docker.com",), "Dockerfile"),
    _stack("kubernetes", "kubernetes k8s kubectl helm", ("kubernetes.io",), None),
    _stack("git", "git rebase", ("git-scm.com",), None),
    _stack("bash", "bash shell zsh", ("www.gnu.org",), "Shell"),
)

DEFAULT_DOMAINS: tuple[str, ...] = (
    "docs.python.org",
    "developer.mozilla.org",
    "react.dev",
    "docs.djangoproject.com",
    "nodejs.org",
    "doc.rust-lang.org",
    "go.dev",
    "learn.microsoft.com",
)
"""Used when a question names no technology: the documentation sites most questions need."""

_SYMBOLIC = re.compile(r"c\+\+|c#|\.net|node\.js|next\.js")


def detect_stacks(text: str) -> list[Stack]:
    """Technologies the text mentions, in the order of `STACKS`."""
    lowered = text.lower()
    tokens = set(words(lowered)) | set(_SYMBOLIC.findall(lowered))
    return [stack for stack in STACKS if stack.triggers & tokens]


def docs_domains(text: str, *, limit: int = 12) -> list[str]:
    """Official documentation domains for a question; the default set when none is named."""
    domains: list[str] = []
    for stack in detect_stacks(text):
        for domain in stack.domains:
            if domain not in domains:
                domains.append(domain)
    return domains[:limit] or list(DEFAULT_DOMAINS)


def github_language(text: str) -> str | None:
    """The GitHub `language:` qualifier for a question, when exactly one language is named."""
    languages = {s.github_language for s in detect_stacks(text) if s.github_language}
    return languages.pop() if len(languages) == 1 else None


def is_allowed(host: str, domains: list[str]) -> bool:
    """Whether a result's host is one of the domains or a subdomain of one."""
    host = host.lower().removeprefix("www.")
    return any(host == d.removeprefix("www.") or host.endswith("." + d) for d in domains)
