"""Extraction of installed libraries' API: names, aliases, signatures, sections, failures.

The libraries are made up in a virtualenv the tests create (`tests/packs_env.py`): the real
ones would need a download, and these exercise each case on purpose.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from codeweaver_corpus.packs.environment import (
    Distribution,
    EnvironmentError_,
    TargetEnvironment,
    choose,
    probe,
)
from codeweaver_corpus.packs.extract import Extraction, Request, extract
from codeweaver_corpus.packs.worker import ExtractionFailed, extract_in_worker
from codeweaver_engine.packs.units import DocUnit
from tests.packs_env import Environment, make_environment


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_environment(tmp_path_factory.mktemp("venv"))


@pytest.fixture(scope="module")
def target(env: Environment) -> TargetEnvironment:
    return probe(env.python)


def request_for(
    target: TargetEnvironment, name: str, *, python: bool = True, **options: object
) -> Request:
    dist = target.distributions[name]
    return Request(
        name=dist.name,
        version=dist.version,
        import_names=dist.import_names,
        search_paths=target.path,
        python=str(target.python) if python else None,
        **options,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def tinylib(target: TargetEnvironment) -> Extraction:
    targets = (
        "tinylib.Table.dropna",
        "tinylib.core.Table.width",
        "tinylib.Table.pivot",
        "tinylib.Table._private",
        "tinylib.web.to_json",
    )
    request = request_for(
        target, "tinylib", module_seconds=1, inspect_memory=2 << 30, targets=targets
    )
    return extract(request)


def by_name(extraction: Extraction) -> dict[str, DocUnit]:
    return {unit.name: unit for unit in extraction.units}


def test_probe_lists_distributions_with_versions_and_import_names(
    target: TargetEnvironment, env: Environment
) -> None:
    found = {d.name: (d.version, d.import_names) for d in target.distributions.values()}
    assert found["tinylib"] == ("1.2.0", ("tinylib",))
    # No top_level.txt: the import name comes from the files the distribution installed.
    assert found["tiny-google"] == ("0.3.0", ("tinyg",))
    assert str(env.site_packages) in target.path
    assert target.version.count(".") == 2


def test_probe_refuses_what_is_not_a_python_interpreter(tmp_path: Path) -> None:
    script = tmp_path / "python"
    script.write_text("#!/bin/sh\necho hello\n")
    script.chmod(0o755)
    with pytest.raises(EnvironmentError_, match="not a Python interpreter"):
        probe(script)
    with pytest.raises(EnvironmentError_, match="does not exist"):
        probe(tmp_path / "missing")
    with pytest.raises(EnvironmentError_, match="is a folder"):
        probe(tmp_path)


def test_packages_are_chosen_by_distribution_or_import_name(target: TargetEnvironment) -> None:
    assert [d.name for d in choose(target, ["tinyg", "TinyLib"])] == ["tiny-google", "tinylib"]
    everything = [d.name for d in choose(target, None)]
    assert everything == ["crashlib", "tiny-google", "tinylib", "tinysphinx"]
    with pytest.raises(EnvironmentError_, match=r"tinylb \(installed and close: tinylib"):
        choose(target, ["tinylb"])


def test_tooling_is_left_out_unless_named() -> None:
    pip = Distribution("pip", "24.0", ("pip",))
    own = Distribution("codeweaver-engine", "0.1.0", ("codeweaver_engine",))
    lib = Distribution("requests", "2.34.2", ("requests",))
    environment = TargetEnvironment(
        python=Path("python"),
        executable="python",
        prefix="/venv",
        version="3.11.7",
        path=(),
        distributions={d.key: d for d in (pip, own, lib)},
    )
    assert [d.name for d in choose(environment, None)] == ["requests"]
    assert [d.name for d in choose(environment, ["pip"])] == ["pip"]


def test_public_api_under_canonical_names_with_other_paths_as_aliases(
    tinylib: Extraction,
) -> None:
    units = by_name(tinylib)
    assert units["tinylib.Table"].aliases == ["tinylib.core.Table"]
    assert units["tinylib.Table.dropna"].aliases == ["tinylib.core.Table.dropna"]
    # A function of a private module, re-exported: its public name only.
    assert units["tinylib.clip"].aliases == []
    names = set(units)
    # `tinylib.Table._private` is a unit only because a task names it (below).
    assert not {n for n in names if "_impl" in n or "_hidden" in n}
    assert not {n for n in names if ".tests" in n}
    assert "tinylib.internal_only" not in names


def test_class_members_with_their_kinds(tinylib: Extraction) -> None:
    units = by_name(tinylib)
    assert units["tinylib.Table"].directive == "class"
    assert units["tinylib.Table.dropna"].directive == "method"
    assert units["tinylib.Table.from_records"].directive == "classmethod"
    assert units["tinylib.Table.width"].directive == "property"
    assert units["tinylib.mean"].directive == "function"
    assert units["tinylib.core"].directive == "module"


def test_signatures_are_qualified_like_the_name(tinylib: Extraction) -> None:
    units = by_name(tinylib)
    assert units["tinylib.Table"].signatures == ["tinylib.Table(rows=None, *, name='table')"]
    assert units["tinylib.Table.dropna"].signatures == ["tinylib.Table.dropna(axis=0, how='any')"]
    assert units["tinylib.Table.from_records"].signatures == ["tinylib.Table.from_records(records)"]


def test_numpydoc_sections_are_markdown_and_examples_runnable(tinylib: Extraction) -> None:
    unit = by_name(tinylib)["tinylib.Table.dropna"]
    assert unit.text.startswith("Remove rows with missing values.")
    assert "**Parameters**\n\n- `axis` ({0, 1}, default 0): Drop rows (0) or columns (1)." in (
        unit.text
    )
    assert "**Returns**\n\n- `Table`: A new table without missing values." in unit.text
    assert "**Raises**\n\n- `ValueError`: If `how` is neither 'any' nor 'all'." in unit.text
    notes = unit.text.split("**Notes**", 1)[1].split("**Examples**", 1)[0]
    assert len(notes) < 800 < len("The rows are compared one by one. " * 60)
    assert unit.examples == ['>>> t = Table([{"a": 1}, {"a": None}])\n>>> len(t.dropna().rows)\n1']
    assert "```\n>>> t = Table(" in unit.text
    assert "See also" in by_name(tinylib)["tinylib.Table"].text
    assert "- `mean`: Average of values." in by_name(tinylib)["tinylib.Table"].text


def test_units_say_where_they_belong(tinylib: Extraction) -> None:
    unit = by_name(tinylib)["tinylib.Table.dropna"]
    assert (unit.kind, unit.doc, unit.module, unit.anchor) == (
        "api",
        "tinylib",
        "tinylib",
        "tinylib.Table.dropna",
    )
    assert unit.section == "tinylib.Table"
    assert unit.doc_title == "tinylib — Tinylib: small tables for tests."


def test_inspection_finds_what_static_reading_cannot(tinylib: Extraction) -> None:
    units = by_name(tinylib)
    double = units["tinylib.dynamic.double"]
    assert double.directive == "function"
    assert double.signatures == ["tinylib.dynamic.double(x)"]
    assert double.text.startswith("Return x times 2.")
    assert double.examples == [">>> double(2)\n4"]
    # Defaults are written without their memory address, the same in every run.
    triple = units["tinylib.dynamic.triple"]
    assert triple.signatures == [
        "tinylib.dynamic.triple(x, *, fill=<object>, key=<function _make>)"
    ]


def test_a_docstring_filled_at_import_time_is_read_filled(tinylib: Extraction) -> None:
    # The source holds `%(line_keywords)s`; the running function, the keywords it stands for.
    line = by_name(tinylib)["tinylib.plotting.line"]
    assert "%(" not in line.text
    assert "- `width` (float): How thick the line is, in points." in line.text
    assert "- `dashed` (bool, default False): Whether the line is drawn dashed." in line.text


def test_without_inspection_a_template_is_kept_as_the_source_has_it(
    target: TargetEnvironment,
) -> None:
    line = by_name(extract(request_for(target, "tinylib", python=False)))["tinylib.plotting.line"]
    assert line.text.startswith("Draw a line through points.")
    assert "width" not in line.text


def test_keywords_passed_on_are_listed_where_they_are_passed(tinylib: Extraction) -> None:
    # `get(url, **kwargs)`: "Optional arguments that ``request`` takes". The keywords a caller
    # passes to `get` are documented on `request`; the ones `request` takes by position are
    # `get`'s own business.
    units = by_name(tinylib)
    get = units["tinylib.http.get"].text
    assert "**Other parameters**" in get
    assert (
        "- `timeout` (float, optional): How many seconds to wait for the server. "
        "(passed on to `tinylib.http.request`)"
    ) in get
    assert "- `verify` (bool, default True):" in get
    assert "`method`" not in get
    assert get.count("`url`") == 1
    assert "**Other parameters**" not in units["tinylib.http.request"].text


def test_static_reading_alone_misses_names_set_at_import_time(target: TargetEnvironment) -> None:
    static = extract(request_for(target, "tinylib", python=False))
    names = {unit.name for unit in static.units}
    assert "tinylib.Table.dropna" in names
    assert "tinylib.dynamic.double" not in names
    assert static.failures == []


def test_modules_that_fail_hang_or_run_out_of_memory_are_recorded_and_their_api_kept(
    tinylib: Extraction,
) -> None:
    assert "tinylib.broken: inspection: RuntimeError: cannot import tinylib.broken" in (
        tinylib.failures
    )
    assert "tinylib.slow: inspection: timed out (1 s)" in tinylib.failures
    # The inspecting process may use 2 GiB of address space here; the module asks for 3.
    assert "tinylib.hungry: inspection: OSError: [Errno 12] Cannot allocate memory" in (
        tinylib.failures
    )
    names = {unit.name for unit in tinylib.units}
    read_statically = {"tinylib.broken.still_read", "tinylib.slow.patient", "tinylib.hungry.frugal"}
    assert read_statically <= names


def test_an_interpreter_that_dies_keeps_what_inspection_read(target: TargetEnvironment) -> None:
    result = extract(request_for(target, "crashlib"))
    assert result.failures == [
        "crashlib: inspection crashed (signal 6) while importing crashlib.fatal; kept what it read"
    ]
    assert {"crashlib.survives", "crashlib.fatal.never"} <= {u.name for u in result.units}


def test_task_targets_resolve_through_aliases_and_missing_ones_are_none(
    tinylib: Extraction,
) -> None:
    assert tinylib.targets == {
        "tinylib.Table.dropna": "tinylib.Table.dropna",
        "tinylib.core.Table.width": "tinylib.Table.width",
        "tinylib.Table.pivot": None,
        # A curated target may name what the public walk leaves out: a private name, or a
        # function the package imports from elsewhere (the user reaches it there).
        "tinylib.Table._private": "tinylib.Table._private",
        "tinylib.web.to_json": "tinylib.web.to_json",
    }
    assert "tinylib.core.Table.width" in by_name(tinylib)["tinylib.Table.width"].aliases
    units = by_name(tinylib)
    assert units["tinylib.Table._private"].text == "Not public."
    assert units["tinylib.web.to_json"].text.startswith("Serialize ``obj``") or units[
        "tinylib.web.to_json"
    ].text.startswith("Serialize `obj`")


def test_testing_helpers_are_api_and_test_suites_are_not(tinylib: Extraction) -> None:
    names = {unit.name for unit in tinylib.units}
    assert "tinylib.testing.assert_table_equal" in names
    assert not {name for name in names if ".tests" in name}


def test_members_inherited_from_another_distribution_are_the_class_api(
    tinylib: Extraction,
) -> None:
    units = by_name(tinylib)
    get = units["tinylib.web.Session.get"]
    assert get.directive == "method"
    assert get.text.startswith("Get a path below the base URL.")
    # Names imported from elsewhere are not this library's API unless a task names them.
    assert "tinylib.web.Client" not in units
    assert "tinylib.web.dumps" not in units


def test_google_and_rest_field_docstrings_are_parsed(target: TargetEnvironment) -> None:
    google = extract(request_for(target, "tiny-google"))
    assert google.style == "google"
    fetch = by_name(google)["tinyg.fetch"]
    assert "- `url` (str): Where to fetch from." in fetch.text
    assert "- `TimeoutError`: When the server is slow." in fetch.text
    assert fetch.examples == [">>> fetch(\"https://example.org\")[:5]\nb'<!doc'"]
    sphinx = extract(request_for(target, "tinysphinx"))
    assert sphinx.style == "sphinx"
    post = by_name(sphinx)["tinysphinx.post"]
    assert "- `json`: (optional) A JSON serializable object to send in the body." in post.text
    assert "**Returns**\n\n- `Response`: The response." in post.text


def test_units_are_capped_shallowest_first(target: TargetEnvironment) -> None:
    capped = extract(request_for(target, "tinylib", python=False, max_units=3))
    assert [u.name for u in capped.units] == ["tinylib", "tinylib.Table", "tinylib.clip"]
    assert capped.stats["capped"] > 0


def test_the_worker_returns_the_same_units(target: TargetEnvironment) -> None:
    request = request_for(target, "tiny-google")
    assert extract_in_worker(request).units == extract(request).units


def test_a_worker_past_its_time_limit_fails_alone(target: TargetEnvironment) -> None:
    # tinylib.slow hangs for 600 s and the module limit is 300 s: only the worker's limit ends it.
    request = request_for(target, "tinylib", module_seconds=300)
    with pytest.raises(ExtractionFailed, match="timed out after 3 s"):
        extract_in_worker(request, seconds=3)


def test_a_worker_killed_at_its_time_limit_leaves_no_temporary_files(
    target: TargetEnvironment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker is killed while its inspecting process hangs in tinylib.slow: the folder it
    # made for that process's request and report must not stay behind in the temporary folder.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    request = request_for(target, "tinylib", module_seconds=300)
    with pytest.raises(ExtractionFailed, match="timed out after 3 s"):
        extract_in_worker(request, seconds=3)
    assert list(tmp_path.iterdir()) == []


ALIASLIB = {
    "aliaslib/__init__.py": '''
        """Scalar types made at run time under several names, listed in a set's order."""

        def _bits(self):
            """Count the 1-bits."""
            return 0

        Number = type("Number", (), {"bit_count": _bits, "__doc__": "A made-up scalar."})
        byte = short = intc = long = int8 = int16 = int32 = int64 = Number
        # numpy builds its `__all__` from sets: its order is the interpreter's hash seed's.
        __all__ = list({"Number", "byte", "short", "intc", "long", "int8", "int16", "int32"})
        ''',
}


def test_a_library_read_twice_gives_the_same_units_whatever_the_hash_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same install must give the same pack: a rebuild reuses vectors by text, and an
    answer names an API by the unit's name."""
    env = make_environment(tmp_path / "venv", extra={"aliaslib": ("0.1", ALIASLIB)})
    target = probe(env.python)
    names = []
    for seed in ("1", "2", "3", "4"):
        # The inspecting process inherits the environment: a user's PYTHONHASHSEED included.
        monkeypatch.setenv("PYTHONHASHSEED", seed)
        extraction = extract(request_for(target, "aliaslib", module_seconds=5))
        names.append(sorted(unit.name for unit in extraction.units))
    assert "aliaslib.Number" in names[0]
    assert all(found == names[0] for found in names)


def test_a_class_that_names_itself_in_queries_quotes_its_lookup_name(tinylib: Extraction) -> None:
    units = by_name(tinylib)
    at_most = units["tinylib.lookups.AtMost"]
    # Its own docstring is none: it inherits one that says nothing of it, and its name is said.
    assert at_most.text.endswith('`lookup_name = "lte"`')
    assert "lookup_name" not in units["tinylib.lookups.Lookup"].text
