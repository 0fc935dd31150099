"""What the offline engine's corpus covers: Python and its standard library, not everything.

A question about Git, Docker, JavaScript or SQL shares words with Python's documentation ("remove
the last commit", "check if an array includes a value"), so the nearest passages look relevant
and are not. The engine declines those questions instead of quoting them. A question is out of
scope when it names another language, tool or platform and does not ask about Python; one that
names a third-party Python library (pandas, Django) is out of scope too, since the bundled
documentation covers the standard library only.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from codeweaver_engine.libraries import libraries_named
from codeweaver_engine.technologies import technologies

# A standard-library API in code form (`os.system()`, `import shutil`) says the question is
# about Python even when it also names another tool ("make os.system() use bash").
# `this` and `antigravity` are jokes, and `this.x` is JavaScript far more often.
_JOKES = frozenset({"this", "antigravity"})
_MODULES = [m for m in sys.stdlib_module_names if not m.startswith("_") and m not in _JOKES]
_STDLIB = "|".join(sorted(_MODULES, key=len))
_STDLIB_CODE = re.compile(rf"\b(?:{_STDLIB})\.[A-Za-z_]\w*|\bimport\s+(?:{_STDLIB})\b")

# The technologies whose names the scope check reads (`data/technologies.toml`): a third-party
# Python library is out of the bundled documentation's scope even in a Python question (it is
# answered from its own pack, when there is one: `libraries.py`); Python itself (the covered
# entries) puts a question in scope; any other named technology puts it out unless Python is
# named too.
_COVERED_PATTERNS = tuple(t.scope for t in technologies() if t.scope and t.covered)
_OTHER_PATTERNS = tuple(
    (t.name, t.scope)
    for t in technologies()
    if t.scope and not t.covered and t.kind != "python-library"
)


def names_standard_library(question: str) -> bool:
    """Whether a question names a standard-library API in code (`datetime.today()`, `import re`)."""
    return _STDLIB_CODE.search(question) is not None


@dataclass(frozen=True)
class Scope:
    """Whether the bundled documentation can answer a question.

    Attributes:
        covered: False when the question is about something the documentation does not cover.
        topic: What it is about instead (`Git`, `pandas`), when not covered.
        third_party: True when that is a Python library outside the standard library.
    """

    covered: bool
    topic: str | None = None
    third_party: bool = False


_SCRIPT_SEAM = re.compile(
    r"(?<=[A-Za-z0-9])(?=[\uac00-\ud7a3])|(?<=[\uac00-\ud7a3])(?=[A-Za-z0-9])"
)


def scope_of(question: str) -> Scope:
    """Whether the question is about Python's standard library, or what else it is about."""
    # Korean particles attach to Latin words ("git에서"): a space there lets `\b` see the word.
    question = _SCRIPT_SEAM.sub(" ", question)
    if named := libraries_named(question):
        return Scope(covered=False, topic=named[0].name, third_party=True)
    if any(p.search(question) for p in _COVERED_PATTERNS) or _STDLIB_CODE.search(question):
        return Scope(covered=True)
    for name, pattern in _OTHER_PATTERNS:
        if pattern.search(question):
            return Scope(covered=False, topic=name)
    return Scope(covered=True)
