"""A tiny Python environment with a few made-up libraries, for the documentation-pack tests.

`make_environment(folder)` creates a virtualenv without pip (about a second) and installs, as
plain files with their `.dist-info`, libraries that exercise what extraction must handle:

- `tinylib` 1.2.0 (numpydoc): a class with a method, a classmethod and a property, defined in
  `tinylib.core` and re-exported in `__init__`; a function from a private module re-exported;
  a module whose functions only exist once it runs (`setattr` at import time, as compiled
  modules' members are invisible to static reading); a function whose docstring is a template
  filled at import time (`tinylib.plotting.line`, as matplotlib's are); a shortcut whose
  `**kwargs` are another function's keywords (`tinylib.http.get`); a module that raises
  on import, one that hangs and one that asks for 3 GiB; a test suite; query lookup classes
  that name themselves (`lookup_name = "lte"`, as Django's do);
- `tiny-google` 0.3.0 (import name `tinyg`, Google style, no `top_level.txt`);
- `tinysphinx` 2.0 (reST fields);
- `crashlib` 0.1 (a module that kills the interpreter on import).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

TINYLIB = {
    "tinylib/__init__.py": '''
        """Tinylib: small tables for tests."""

        from tinylib import dynamic
        from tinylib._impl import clip
        from tinylib.core import Table, mean

        __all__ = ["Table", "clip", "dynamic", "mean"]
        ''',
    "tinylib/core.py": '''
        """Tables and their statistics."""


        class Table:
            """A small table of rows.

            Parameters
            ----------
            rows : list of dict, optional
                The rows.

            See Also
            --------
            mean : Average of values.
            """

            def __init__(self, rows=None, *, name="table"):
                self.rows = list(rows or [])
                self.name = name

            def dropna(self, axis=0, how="any"):
                """Remove rows with missing values.

                Parameters
                ----------
                axis : {0, 1}, default 0
                    Drop rows (0) or columns (1).
                how : {'any', 'all'}
                    Drop a row when any or all of its values are missing.

                Returns
                -------
                Table
                    A new table without missing values.

                Raises
                ------
                ValueError
                    If `how` is neither 'any' nor 'all'.

                Notes
                -----
                NOTES_TEXT

                Examples
                --------
                Drop the row whose value is missing:

                >>> t = Table([{"a": 1}, {"a": None}])
                >>> len(t.dropna().rows)
                1
                """
                return Table([r for r in self.rows if None not in r.values()])

            @classmethod
            def from_records(cls, records):
                """Make a table from tuples of values."""
                return cls([dict(enumerate(r)) for r in records])

            @property
            def width(self):
                """How many columns the table has."""
                return len(self.rows[0]) if self.rows else 0

            def _private(self):
                """Not public."""


        def mean(values):
            """Average of values.

            >>> mean([1, 2, 3])
            2.0
            """
            return sum(values) / len(values)


        def _hidden():
            """Not public."""
        '''.replace("NOTES_TEXT", "The rows are compared one by one. " * 60),
    "tinylib/_impl.py": '''
        """Private implementation."""


        def clip(value, low, high):
            """Limit a value to a range.

            Parameters
            ----------
            value : float
                The value.
            low, high : float
                The range.
            """
            return max(low, min(high, value))


        def internal_only():
            """Never public."""
        ''',
    "tinylib/dynamic.py": '''
        """Functions made at import time, which static reading cannot see."""

        import inspect
        import sys


        def _make(name, factor):
            def function(x):
                return x * factor

            function.__name__ = function.__qualname__ = name
            function.__module__ = __name__
            function.__doc__ = f"""Return x times {factor}.

            >>> {name}(2)
            {2 * factor}
            """
            return function


        for _name, _factor in (("double", 2), ("triple", 3)):
            setattr(sys.modules[__name__], _name, _make(_name, _factor))

        # Defaults whose repr is their memory address.
        _parameter = inspect.Parameter
        triple.__signature__ = inspect.Signature(
            [
                _parameter("x", _parameter.POSITIONAL_OR_KEYWORD),
                _parameter("fill", _parameter.KEYWORD_ONLY, default=object()),
                _parameter("key", _parameter.KEYWORD_ONLY, default=_make),
            ]
        )
        ''',
    "tinylib/broken.py": '''
        """A module whose import fails."""


        def still_read():
            """Read statically even though importing the module fails."""


        raise RuntimeError("cannot import tinylib.broken")
        ''',
    "tinylib/slow.py": '''
        """A module whose import never ends."""

        import time


        def patient():
            """Read statically even though importing the module hangs."""


        time.sleep(600)
        ''',
    "tinylib/hungry.py": '''
        """A module whose import asks for more memory than inspection may use."""

        import mmap


        def frugal():
            """Read statically even though importing the module runs out of memory."""


        # 3 GiB of address space, never touched: over a 2 GiB limit, free under 4 GiB.
        _BLOCK = mmap.mmap(-1, 3 << 30)
        ''',
    "tinylib/plotting.py": '''
        """Docstrings filled in at import time, as matplotlib's are (`%(name)s` placeholders)."""

        # Written at the indentation of the docstrings it is filled into, as matplotlib's are.
        _LINE_KEYWORDS = """width : float
                How thick the line is, in points.
            dashed : bool, default False
                Whether the line is drawn dashed."""


        def _fill(function):
            function.__doc__ = function.__doc__ % {"line_keywords": _LINE_KEYWORDS}
            return function


        @_fill
        def line(*points, **kwargs):
            """Draw a line through points.

            Other Parameters
            ----------------
            %(line_keywords)s
            """
        ''',
    "tinylib/http.py": '''
        """Requests whose shortcuts pass their keywords on, as `requests.get` does."""


        def request(method, url, **kwargs):
            """Send a request.

            Parameters
            ----------
            method : str
                The HTTP method.
            url : str
                Where to send it.
            timeout : float, optional
                How many seconds to wait for the server.
            verify : bool, default True
                Whether to check the server's certificate.
            """


        def get(url, **kwargs):
            """Send a GET request.

            Parameters
            ----------
            url : str
                Where to send it.
            **kwargs
                Optional arguments that ``request`` takes.
            """
        ''',
    "tinylib/testing.py": '''
        """Helpers for testing code that uses tinylib: API, not a test suite."""


        def assert_table_equal(left, right):
            """Check that two tables hold the same rows."""
            assert left.rows == right.rows
        ''',
    "tinylib/web.py": '''
        """A subclass of another library's class."""

        from json import dumps as to_json

        from tinyg import Client


        class Session(Client):
            """A client that remembers cookies."""
        ''',
    "tinylib/lookups.py": '''
        """Query lookups, named in a query by their lookup name."""


        class Lookup:
            """Some lookups need their value prepared first."""

            lookup_name = None


        class AtMost(Lookup):
            lookup_name = "lte"
        ''',
    "tinylib/tests/__init__.py": "",
    "tinylib/tests/test_core.py": '''
        def test_table():
            """A test, not API."""
        ''',
}

TINYG = {
    "tinyg/__init__.py": '''
        """Google-style docstrings."""


        def fetch(url, timeout=10.0):
            """Fetch a URL.

            Args:
                url (str): Where to fetch from.
                timeout: Seconds to wait.

            Returns:
                bytes: The body.

            Raises:
                TimeoutError: When the server is slow.

            Examples:
                >>> fetch("https://example.org")[:5]
                b'<!doc'
            """


        class Client:
            """A client.

            Args:
                base: The base URL.
            """

            def __init__(self, base):
                self.base = base

            def get(self, path):
                """Get a path below the base URL.

                Args:
                    path: The path.

                Returns:
                    The body.
                """
        ''',
}

TINYSPHINX = {
    "tinysphinx.py": '''
        """reST fields."""


        def post(url, data=None, json=None, **kwargs):
            """Sends a POST request.

            :param url: URL for the new request.
            :param data: (optional) Dictionary to send in the body.
            :param json: (optional) A JSON serializable object to send in the body.
            :return: The response.
            :rtype: Response
            :raises ValueError: if the URL is empty.
            """
        ''',
}

CRASHLIB = {
    "crashlib/__init__.py": '''
        """A library with a module that kills the interpreter on import."""


        def survives():
            """Read statically; the interpreter dies importing `crashlib.fatal`."""
        ''',
    "crashlib/fatal.py": '''
        """Importing this aborts the process."""

        import os


        def never():
            """Read statically."""


        os.abort()
        ''',
}


@dataclass(frozen=True)
class Environment:
    """A made-up environment: its interpreter and its site-packages folder."""

    root: Path
    python: Path
    site_packages: Path


def _write_distribution(
    site: Path,
    name: str,
    version: str,
    files: dict[str, str],
    *,
    top_level: list[str] | None,
) -> None:
    for relative, text in files.items():
        path = site / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {name} for tests\n",
        encoding="utf-8",
    )
    records = [*files, f"{info.name}/METADATA", f"{info.name}/RECORD"]
    (info / "RECORD").write_text("".join(f"{r},,\n" for r in records), encoding="utf-8")
    if top_level is not None:
        (info / "top_level.txt").write_text("\n".join(top_level) + "\n", encoding="utf-8")


def make_environment(
    folder: Path, *, extra: dict[str, tuple[str, dict[str, str]]] | None = None
) -> Environment:
    """A virtualenv in `folder` with the made-up libraries installed (and `extra`'s: name to
    version and files)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = Path(
        json.loads(
            subprocess.run(
                [str(python), "-c", "import json, site; print(json.dumps(site.getsitepackages()))"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )[0]
    )
    _write_distribution(site, "tinylib", "1.2.0", TINYLIB, top_level=["tinylib"])
    _write_distribution(site, "tiny-google", "0.3.0", TINYG, top_level=None)
    _write_distribution(site, "tinysphinx", "2.0", TINYSPHINX, top_level=["tinysphinx"])
    _write_distribution(site, "crashlib", "0.1", CRASHLIB, top_level=["crashlib"])
    for name, (version, files) in (extra or {}).items():
        _write_distribution(site, name, version, files, top_level=[name])
    return Environment(root=folder, python=python, site_packages=site)


# Made-up libraries under real libraries' names, so that the engine's technology list knows the
# questions about them: a question that names pandas is answered from the `pandas` pack.
FAKE_PANDAS = {
    "pandas/__init__.py": '''
        """A made-up pandas: a DataFrame with two methods."""

        from pandas.frame import DataFrame

        __all__ = ["DataFrame"]
        ''',
    "pandas/frame.py": '''
        """Two-dimensional tables."""


        class DataFrame:
            """Two-dimensional, size-mutable, potentially heterogeneous tabular data."""

            def dropna(self, *, axis=0, how="any", subset=None):
                """Remove missing values.

                Parameters
                ----------
                axis : {0 or 'index', 1 or 'columns'}, default 0
                    Drop rows (0) or columns (1) which contain missing values.
                how : {'any', 'all'}, default 'any'
                    Drop a row when any or all of its values are missing.

                Examples
                --------
                >>> df.dropna()
                     name        toy       born
                1  Batman  Batmobile 1940-04-25
                """

            def to_csv(self, path=None, *, sep=",", index=True):
                """Write object to a comma-separated values (csv) file."""
        ''',
}
FAKE_NUMPY = {
    "numpy/__init__.py": '''
        """A made-up NumPy."""


        def argmax(a, axis=None):
            """Returns the indices of the maximum values along an axis."""
        ''',
}


def make_library_environment(folder: Path) -> Environment:
    """A virtualenv with made-up `pandas` and `numpy` 9.9.0 installed (no pip)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = Path(
        json.loads(
            subprocess.run(
                [str(python), "-c", "import json, site; print(json.dumps(site.getsitepackages()))"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )[0]
    )
    _write_distribution(site, "pandas", "9.9.0", FAKE_PANDAS, top_level=["pandas"])
    _write_distribution(site, "numpy", "9.9.0", FAKE_NUMPY, top_level=["numpy"])
    return Environment(root=folder, python=python, site_packages=site)
