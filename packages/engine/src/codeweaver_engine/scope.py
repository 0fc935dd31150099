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

_PYTHON = re.compile(r"\bpython\s*\d?(\.\d+)?\b|\bpy3?\b|\bcpython\b|파이썬|\.py\b", re.IGNORECASE)

# A standard-library API in code form (`os.system()`, `import shutil`) says the question is
# about Python even when it also names another tool ("make os.system() use bash").
# `this` and `antigravity` are jokes, and `this.x` is JavaScript far more often.
_JOKES = frozenset({"this", "antigravity"})
_MODULES = [m for m in sys.stdlib_module_names if not m.startswith("_") and m not in _JOKES]
_STDLIB = "|".join(sorted(_MODULES, key=len))
_STDLIB_CODE = re.compile(rf"\b(?:{_STDLIB})\.[A-Za-z_]\w*|\bimport\s+(?:{_STDLIB})\b")

# Another language, tool or platform, by the names people write it with. Case-sensitive where a
# name is also an English word ("Go", "Rust" as a language, not "rust stains").
_OTHER = (
    (
        "JavaScript",
        r"(?i:\bjavascript\b|\bnode\.?js\b|\bnpm\b|\byarn\b|\bjquery\b|\becmascript\b)|\bJS\b"
        # A browser's or Node's error text, and the files of an npm project.
        r"|\bUncaught \w*Error\b|(?i:cannot read propert(?:y|ies) of (?:null|undefined))"
        r"|\bis not a function\b|\bconsole\.log\b|\bdocument\.\w+|\baddEventListener\b"
        r"|\bpackage(?:-lock)?\.json\b|\bnode_modules\b|자바스크립트",
    ),
    ("TypeScript", r"(?i:\btypescript\b)|\bTS\b|타입스크립트"),
    ("React", r"(?i:\breact(\.js|js)?\b(?! to)|\buseEffect\b|\buseState\b|\bJSX\b)|리액트"),
    ("Vue", r"\bVue(\.js)?\b"),
    ("Angular", r"\bAngular(JS)?\b"),
    ("Rust", r"\bRust\b|(?i:\bcargo\b|\brustc\b)|러스트"),
    (
        "Go",
        r"(?i:\bgolang\b)|\b(in|with|using) Go\b|고랭"
        r"|\bGo(?:'s)?\s+(code|program|map|slice|struct|module|routine)s?\b",
    ),
    (
        "Java",
        r"\bJava\b(?!\s*[Ss]cript)|자바(?!스크립트)"
        r"|(?i:\bjvm\b|\bmaven\b|\bgradle\b|\bspring boot\b|\bArrayList\b|\bHashMap\b)",
    ),
    ("Kotlin", r"(?i:\bkotlin\b)|코틀린"),
    ("C#", r"(?i:\bC#|\bcsharp\b|\.net\b|\basp\.net\b)|씨샵"),
    ("C++", r"(?i:\bC\+\+|\bcpp\b|\bstd::)"),
    ("Swift", r"\bSwift(UI)?\b|\bXcode\b"),
    ("PHP", r"(?i:\bphp\b|\blaravel\b)"),
    ("Ruby", r"(?i:\bruby\b|\brails\b)"),
    (
        "SQL",
        r"(?i:\bpostgres(ql)?\b|\bmysql\b|\bmariadb\b|\bsql server\b|\boracle db\b"
        r"|\bt-sql\b|\bpl/sql\b|\b(left|right|inner|outer) join\b|\bgroup by\b)",
    ),
    ("Git", r"(?i:\bgit\b|\bgithub actions\b)|깃허브"),
    ("Docker", r"(?i:\bdocker(file)?\b|\bdocker-compose\b)|도커"),
    ("Kubernetes", r"(?i:\bkubernetes\b|\bkubectl\b|\bk8s\b|\bhelm chart)|쿠버네티스"),
    (
        "the shell",
        r"(?i:\bbash\b|\bzsh\b|\bpowershell\b|\bshell script\b|\bsed\b|\bawk\b|\bgrep\b)|배시",
    ),
    ("CSS", r"(?i:\bcss\b|\bflexbox\b|\bdiv\b)"),
    ("Excel", r"(?i:\bexcel\b|\bvba\b)|엑셀"),
    ("Android", r"(?i:\bandroid\b)|안드로이드"),
    ("iOS", r"\biOS\b"),
    ("MATLAB", r"(?i:\bmatlab\b)"),
    ("R", r"\bin R\b|\bR's\b|\bdplyr\b|\bggplot2?\b"),
)
_OTHER_PATTERNS = tuple((name, re.compile(pattern)) for name, pattern in _OTHER)

# Third-party Python libraries: Python, but not in the standard library's documentation.
_LIBRARIES = (
    ("pandas", r"(?i:\bpandas\b|\bdataframe\b|\bpd\.\w+)|판다스"),
    ("NumPy", r"(?i:\bnumpy\b|\bnp\.\w+|\bndarray\b)|넘파이"),
    ("Django", r"(?i:\bdjango\b)|장고"),
    ("Flask", r"(?i:\bflask\b)|플라스크"),
    ("FastAPI", r"(?i:\bfastapi\b)"),
    (
        "requests",
        r"(?i:\brequests\.(get|post|put|delete|session)\b|\bpython-requests\b"
        r"|\brequests library\b)",
    ),
    ("matplotlib", r"(?i:\bmatplotlib\b|\bpyplot\b|\bplt\.\w+)"),
    ("SciPy", r"(?i:\bscipy\b)"),
    ("scikit-learn", r"(?i:\bscikit-learn\b|\bsklearn\b)"),
    ("TensorFlow", r"(?i:\btensorflow\b|\bkeras\b)"),
    ("PyTorch", r"(?i:\bpytorch\b|\btorch\.\w+)"),
    ("Beautiful Soup", r"(?i:\bbeautiful ?soup\b|\bbs4\b)"),
    ("Selenium", r"(?i:\bselenium\b)"),
    ("SQLAlchemy", r"(?i:\bsqlalchemy\b)"),
    ("pydantic", r"(?i:\bpydantic\b)"),
    ("boto3", r"(?i:\bboto3?\b)"),
    ("OpenCV", r"(?i:\bopencv\b|\bcv2\b)"),
    ("Pillow", r"(?i:\bpillow\b|\bPIL\b)"),
    ("Tornado or Twisted", r"(?i:\btornado\b|\btwisted\b)"),
    ("pygame", r"(?i:\bpygame\b)"),
    ("PyQt", r"(?i:\bpyqt\d?\b|\bpyside\d?\b)"),
    ("Scrapy", r"(?i:\bscrapy\b)"),
)
_LIBRARY_PATTERNS = tuple((name, re.compile(pattern)) for name, pattern in _LIBRARIES)


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


_SCRIPT_SEAM = re.compile(r"(?<=[A-Za-z0-9])(?=[가-힣])|(?<=[가-힣])(?=[A-Za-z0-9])")


def scope_of(question: str) -> Scope:
    """Whether the question is about Python's standard library, or what else it is about."""
    # Korean particles attach to Latin words ("git에서"): a space there lets `\b` see the word.
    question = _SCRIPT_SEAM.sub(" ", question)
    for name, pattern in _LIBRARY_PATTERNS:
        if pattern.search(question):
            return Scope(covered=False, topic=name, third_party=True)
    if _PYTHON.search(question) or _STDLIB_CODE.search(question):
        return Scope(covered=True)
    for name, pattern in _OTHER_PATTERNS:
        if pattern.search(question):
            return Scope(covered=False, topic=name)
    return Scope(covered=True)
