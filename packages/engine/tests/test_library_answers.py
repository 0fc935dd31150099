"""A question that names a library is answered from its pack, or declined with what to do."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codeweaver_engine.compose import (
    COVERAGE_WEIGHT,
    GLOSSED_SCORE_LOSS,
    LIBRARY_FLOOR_OFFSET,
    RELEVANCE_FLOOR,
    Libraries,
    answer_coverage,
    axis_asked,
    extractive_answer,
    floor_for,
    parameters,
    switched_value,
)
from codeweaver_engine.grounding import check_grounding
from codeweaver_engine.libraries import (
    Environment,
    ingest_command,
    keep_named,
    libraries_named,
    version_named,
)
from codeweaver_engine.packs.catalog import packs_folder
from codeweaver_engine.packs.format import Pack, embedding_text
from codeweaver_engine.packs.index import DocsIndex
from codeweaver_engine.packs.retrieval import UNNAMED_LIBRARY_HANDICAP, PackSearch, evidence_of
from codeweaver_engine.packs.units import DocUnit
from codeweaver_engine.search import refine
from codeweaver_runtime import Embedder
from codeweaver_schema import Analysis, Answer, Evidence, LocalMeta, Sufficiency
from codeweaver_testing import HashEmbedder
from codeweaver_testing.packs import api_unit, write_test_pack
from tests.turns import cacheable

PANDAS = Pack("pandas", "3.1.1", "installed", "pandas", None, "test", ("pandas",))
DROPNA = api_unit(
    "pandas.DataFrame.dropna",
    "pandas.DataFrame.dropna(*, axis=0, how=<no_default>, subset=None, inplace=False)",
    "Remove missing values.\n\nSee the User Guide for more on which values are considered "
    "missing, and how to work with missing data.",
    examples=[">>> df.dropna()\n     name        toy       born\n1  Batman  Batmobile 1940-04-25"],
    directive="method",
)
FILLNA = api_unit(
    "pandas.DataFrame.fillna",
    "pandas.DataFrame.fillna(value, *, axis=None, inplace=False, limit=None)",
    "Fill NA/NaN values with `value`.",
    directive="method",
)


def _pandas_evidence(score: float = 0.86) -> list[Evidence]:
    units = [DROPNA, FILLNA]
    index = DocsIndex(
        units,
        np.zeros((2, 4), dtype=np.float32),
        [],
        np.zeros((0, 4), dtype=np.float32),
        pack=PANDAS,
    )
    return [evidence_of(index.hit(0, score)), evidence_of(index.hit(1, score - 0.2))]


def _analysis(question: str, language: str = "en") -> Analysis:
    return cacheable(question, question_type="independent", intent="learning", language=language)


def _stdlib(index: DocsIndex, name: str, score: float) -> Evidence:
    return evidence_of(index.hit(index.positions(name)[0], score))


async def _answer(
    question: str,
    evidence: list[Evidence],
    embedder: Embedder,
    libraries: Libraries | None,
    language: str = "en",
) -> Answer:
    return await extractive_answer(
        question, _analysis(question, language), evidence, embedder, libraries=libraries
    )


async def _answer_from_entry(
    unit: DocUnit, pack: Pack, question: str, embedder: Embedder, score: float = 0.9
) -> Answer:
    """The answer when one entry of an installed pack, found at `score`, is all the evidence."""
    index = DocsIndex(
        [unit],
        np.zeros((1, 4), dtype=np.float32),
        [],
        np.zeros((0, 4), dtype=np.float32),
        pack=pack,
    )
    evidence = [evidence_of(index.hit(0, score))]
    return await _answer(question, evidence, embedder, Libraries(packs=[pack]))


async def test_a_library_question_is_answered_from_its_pack_and_says_which(
    index: DocsIndex, embedder: Embedder
) -> None:
    # The standard library's `math.isnan` reads close to "missing values" and scores higher:
    # it is no answer to a question about pandas.
    evidence = [_stdlib(index, "math.isnan", 0.95), *_pandas_evidence()]
    answer = await _answer(
        "How do I drop rows with NaN values in a pandas DataFrame?",
        evidence,
        embedder,
        Libraries(packs=[PANDAS]),
    )
    assert not answer.declined
    lines = answer.text.splitlines()
    assert lines[0] == (
        "_Answered offline, without a language model: quoted from pandas 3.1.1, installed._"
    )
    assert "**Use `pandas.DataFrame.dropna`** [1]" in answer.text
    assert "pandas.DataFrame.dropna(*, axis=0" in answer.text
    assert ">>> df.dropna()" in answer.text
    assert "math.isnan" not in answer.text
    assert {(c.pack, c.version) for c in answer.citations} == {("pandas", "3.1.1")}


async def test_a_standard_library_answer_says_it_quotes_the_python_documentation(
    index: DocsIndex, embedder: Embedder
) -> None:
    evidence = [_stdlib(index, "os.remove", 0.9)]
    answer = await _answer("How do I delete a file?", evidence, embedder, Libraries())
    assert answer.text.splitlines()[0] == (
        "_Answered offline, without a language model: quoted from the Python 3.11 documentation._"
    )
    assert [(c.pack, c.version) for c in answer.citations] == [("python", "3.11")]


async def test_a_version_other_than_the_installed_one_is_said(embedder: Embedder) -> None:
    answer = await _answer(
        "How to drop rows with missing values in pandas 1.5?",
        _pandas_evidence(),
        embedder,
        Libraries(packs=[PANDAS]),
    )
    assert not answer.declined
    assert (
        "_You asked about pandas 1.5; this quotes pandas 3.1.1, the version installed here: "
        "check what changed between them._"
    ) in answer.text.splitlines()[:3]
    same = await _answer(
        "How to drop rows with missing values in pandas 3.1?",
        _pandas_evidence(),
        embedder,
        Libraries(packs=[PANDAS]),
    )
    assert "You asked about" not in same.text


def _environment(**versions: str) -> Libraries:
    return Libraries(
        packs=[],
        environment=lambda: Environment(python="/home/me/app/.venv/bin/python", versions=versions),
    )


async def test_an_installed_library_without_a_pack_is_declined_with_the_command_that_reads_it(
    index: DocsIndex, embedder: Embedder
) -> None:
    evidence = [_stdlib(index, "math.isnan", 0.95)]
    answer = await _answer(
        "How do I drop rows with NaN values in a pandas DataFrame?",
        evidence,
        embedder,
        _environment(pandas="3.1.1", numpy="2.4.6"),
    )
    assert answer.declined
    assert answer.decline_reason == "library_not_indexed"
    assert answer.citations == []
    assert answer.text.startswith(
        "**This looks like a question about pandas, which I have not read yet**: pandas 3.1.1 "
        "is installed in `/home/me/app/.venv/bin/python`"
    )
    assert (
        "Read it from your environment, then ask again: "
        "`codeweaver ingest --python /home/me/app/.venv/bin/python --packages pandas`."
    ) in answer.text
    assert "math.isnan" not in answer.text


async def test_a_library_that_is_not_installed_is_declined_as_such(embedder: Embedder) -> None:
    answer = await _answer(
        "How do I send a POST request with JSON using requests?",
        [],
        embedder,
        _environment(numpy="2.4.6"),
    )
    assert answer.decline_reason == "library_not_indexed"
    assert answer.text.startswith(
        "**This looks like a question about requests, which is not installed in "
        "`/home/me/app/.venv/bin/python`**"
    )
    assert "`pip install requests`" in answer.text
    korean = await _answer(
        "판다스 데이터프레임에서 결측치가 있는 행을 삭제하려면?",
        [],
        embedder,
        _environment(pandas="3.1.1"),
        language="ko",
    )
    assert korean.decline_reason == "library_not_indexed"
    assert "pandas에 관한 질문으로 보입니다" in korean.text
    assert "--packages pandas" in korean.text


@pytest.mark.parametrize(
    ("question", "library", "distribution"),
    [
        ("How do I make a heatmap with seaborn?", "seaborn", "seaborn"),
        ("read a csv file with polars", "polars", "polars"),
        ("show a progress bar for a loop with tqdm", "tqdm", "tqdm"),
        ("parse an html table with lxml", "lxml", "lxml"),
    ],
)
async def test_every_library_of_the_list_is_declined_by_name_not_answered_from_another(
    embedder: Embedder, question: str, library: str, distribution: str
) -> None:
    """Libraries the list named only for the cache's guards were answered as if Python's."""
    answer = await _answer(question, [], embedder, _environment(numpy="2.4.6"))
    assert answer.decline_reason == "library_not_indexed"
    assert answer.text.startswith(f"**This looks like a question about {library}, which is not")
    assert f"`pip install {distribution}`" in answer.text


async def test_without_an_environment_the_decline_still_names_the_command(
    embedder: Embedder,
) -> None:
    answer = await _answer("numpy: index of the max value", [], embedder, None)
    assert answer.decline_reason == "library_not_indexed"
    assert "`codeweaver ingest --python PATH --packages numpy`" in answer.text


async def test_other_technologies_are_still_out_of_scope(embedder: Embedder) -> None:
    answer = await _answer(
        "How do I undo the last git commit?", [], embedder, Libraries(packs=[PANDAS])
    )
    assert answer.decline_reason == "out_of_scope"


@pytest.mark.parametrize(
    ("question", "library"),
    [
        ("How to count the NaN values in a column of a data frame", "pandas"),
        ("Merge 2 dataframes with same values in a column", "pandas"),
        ("df.loc with a list of labels", "pandas"),
        ("numpy: how to get the index of the max value in an array", "NumPy"),
        ("np.where with two conditions", "NumPy"),
        ("plt.savefig cuts off the legend", "matplotlib"),
        ("How to add a colorbar for a hist2d plot", "matplotlib"),
        ("soup.find_all with a class", "Beautiful Soup"),
        ("driver.find_element by partial link text", "Selenium"),
        ("Post JSON using Python Requests", "requests"),
        ("How do I send a POST request with JSON with requests?", "requests"),
        ("requests로 JSON 데이터를 POST 요청으로 보내는 방법", "requests"),
        ("requests 라이브러리에서 타임아웃 설정하기", "requests"),
        ("Django filter a queryset by a field's length", "Django"),
        ("판다스 데이터프레임에서 열 이름 바꾸기", "pandas"),
    ],
)
def test_a_library_is_named_by_its_name_or_by_code_only_its_users_write(
    question: str, library: str
) -> None:
    assert library in [lib.name for lib in libraries_named(question)]


@pytest.mark.parametrize(
    "question",
    [
        "Multiply a vector by a matrix without NumPy",
        "How do I make HTTP requests in Python?",
        "How do I retry failed requests in Python?",
        "HTTP 요청(requests)을 비동기로 보내는 방법",
        "How do I reverse a list?",
    ],
)
def test_a_question_that_names_no_library_or_excludes_it_names_none(question: str) -> None:
    assert libraries_named(question) == ()


def test_the_version_asked_for_is_read_after_the_library_name() -> None:
    [pandas] = libraries_named("pandas")
    assert version_named("drop duplicates in pandas 1.5", pandas) == "1.5"
    assert version_named("pandas==2.0.3 read_csv", pandas) == "2.0.3"
    assert version_named("pandas version 2 groupby", pandas) == "2"
    assert version_named("pandas read 3 csv files", pandas) is None


def test_a_later_round_keeps_searching_the_library_the_question_names() -> None:
    question = "How do I drop rows with NaN values in a pandas DataFrame?"
    verdict = Sufficiency(score=0.2, sufficient=False, missing_aspects=["nan"], reason="")
    query, _ = refine(question, sufficiency=verdict, tried=[question]) or ("", "")
    assert [lib.name for lib in libraries_named(query)] == ["pandas"]
    assert keep_named("python requests: post json", "post json") == "requests library post json"
    assert ingest_command("/my env/bin/python", "pandas") == (
        "codeweaver ingest --python '/my env/bin/python' --packages pandas"
    )


async def test_a_search_that_names_a_library_searches_its_pack_alone(tmp_path: Path) -> None:
    embedder = HashEmbedder()
    root = packs_folder(tmp_path)
    write_test_pack(root, "pandas", "3.1.1", [DROPNA], embedder)
    isnan = api_unit("numpy.isnan", "numpy.isnan(x)", "Test element-wise for NaN.")
    write_test_pack(root, "numpy", "2.4.6", [isnan], embedder)
    search = PackSearch(lambda: embedder, packs=[], installed=root)
    found = await search.search("drop NaN values in pandas", k=5)
    assert {e.meta.pack for e in found if isinstance(e.meta, LocalMeta)} == {"pandas"}
    everything = await search.search("drop NaN values", k=5)
    assert {e.meta.pack for e in everything if isinstance(e.meta, LocalMeta)} == {
        "pandas",
        "numpy",
    }


def _bundled(units: list[DocUnit], embedder: HashEmbedder) -> DocsIndex:
    vectors = embedder.embed_sync([embedding_text(u) for u in units])
    pack = Pack("python", "3.11", "bundled", "Python", None, embedder.model_id)
    return DocsIndex(units, vectors, [], np.zeros((0, 256), dtype=np.float32), pack=pack)


async def test_a_question_that_names_no_library_is_the_standard_library_s_unless_far_better(
    tmp_path: Path,
) -> None:
    embedder = HashEmbedder()
    isnan = api_unit("math.isnan", "math.isnan(x)", "Return True if x is a NaN.")
    bundled = _bundled([isnan], embedder)
    root = packs_folder(tmp_path)
    same = api_unit("numpy.isnan", "numpy.isnan(x)", "Return True if x is a NaN.")
    write_test_pack(root, "numpy", "2.4.6", [same], embedder)
    search = PackSearch(lambda: embedder, packs=[lambda: bundled], installed=root)
    [first, second] = await search.search_hits("Return True if x is a NaN", k=2)
    assert (first.pack.name, second.pack.name) == ("python", "numpy")
    # Asked of its pack alone (the agents' `library`), the library's unit is not handicapped.
    [alone] = await search.search_hits("Return True if x is a NaN", k=1, packs={"numpy"})
    assert second.score == pytest.approx(alone.score - UNNAMED_LIBRARY_HANDICAP)
    # Named in code, the standard library's API is the one asked about.
    assert {h.pack.name for h in await search.search_hits("isnan like math.isnan", k=2)} == {
        "python"
    }
    # Named, the library's pack alone.
    assert {h.pack.name for h in await search.search_hits("numpy: is x a NaN", k=2)} == {"numpy"}


REQUESTS = Pack("requests", "2.34.2", "installed", "requests", None, "test", ("requests",))
REQUEST = api_unit(
    "requests.post",
    "requests.post(url, data=None, json=None, **kwargs)",
    "Sends a POST request.\n\n**Parameters**\n\n"
    "- `url`: URL for the new `Request` object.\n"
    "- `json`: (optional) A JSON serializable Python object to send in the body.\n"
    "- `cookies` (dict or CookieJar): (optional) Dict or CookieJar object to send with the "
    "`Request`.\n"
    "- `verify` (bool or str): (optional) Either a boolean, in which case it controls whether "
    "we verify the server's TLS certificate, or a string, in which case it must be a path to "
    "a CA bundle to use. Defaults to `True`.\n"
    "- `**kwargs`: Optional arguments that `request` takes.\n\n"
    "**Returns**\n\n- `requests.Response`: `Response` object",
    examples=[
        ">>> requests.post(url, json={'key': 'value'})",
        ">>> requests.post(url, cookies={'session': 'abc'})",
    ],
)


def test_the_keywords_an_entry_lists_are_read_with_their_types() -> None:
    assert [(name, kind) for name, kind, _ in parameters(REQUEST.text)] == [
        ("url", ""),
        ("json", ""),
        ("cookies", "dict or CookieJar"),
        ("verify", "bool or str"),
    ]


async def _requests_answer(question: str, embedder: Embedder) -> Answer:
    return await _answer_from_entry(REQUEST, REQUESTS, question, embedder)


async def test_the_keyword_that_does_what_is_asked_is_explained_with_its_example(
    embedder: Embedder,
) -> None:
    answer = await _requests_answer(
        "How to send cookies in a post request with the Python requests library?", embedder
    )
    assert "`cookies=` (dict or CookieJar) — (optional) Dict or CookieJar object" in answer.text
    assert "requests.post(url, cookies={'session': 'abc'})" in answer.text
    assert "`verify=`" not in answer.text
    certificate = await _requests_answer(
        "How do I skip the TLS certificate check with requests post?", embedder
    )
    assert "`post(verify=False)` (bool or str)" in certificate.text


async def test_a_second_keyword_explains_what_the_first_leaves(embedder: Embedder) -> None:
    post = api_unit(
        "requests.post",
        "requests.post(url, data=None, json=None, **kwargs)",
        "Sends a POST request.\n\n**Parameters**\n\n"
        "- `url`: URL for the new `Request` object.\n"
        "- `json`: (optional) A JSON serializable Python object to send in the body.\n\n"
        "**Other parameters**\n\n"
        "- `files`: (optional) Dictionary of 'name': file-like-objects for multipart encoding "
        "upload. (passed on to `requests.request`)\n"
        "- `timeout` (float): How many seconds to wait for the server. (passed on to "
        "`requests.request`)",
    )
    both = await _answer_from_entry(
        post, REQUESTS, "How do I send a file and JSON in one post request with requests?", embedder
    )
    assert "`files=` — (optional) Dictionary of 'name': file-like-objects" in both.text
    assert "`json=` — (optional) A JSON serializable Python object" in both.text
    assert "`timeout=`" not in both.text
    one = await _answer_from_entry(
        post, REQUESTS, "How do I upload a file in a post request with requests?", embedder
    )
    assert "`files=`" in one.text
    assert "`json=`" not in one.text


async def test_a_keyword_whose_name_spells_the_asked_word_is_the_one_explained(
    embedder: Embedder,
) -> None:
    matplotlib = Pack("matplotlib", "3.11.2", "installed", "matplotlib", None, "test")
    legend = api_unit(
        "matplotlib.pyplot.legend",
        "matplotlib.pyplot.legend(*args, **kwargs)",
        "Place a legend on the Axes.\n\n**Other parameters**\n\n"
        '- `mode` ({"expand", None}): If mode is set to "expand" the legend will be '
        "horizontally expanded to fill the Axes area (or bbox_to_anchor if defines the "
        "legend's size).\n"
        "- `fontsize` (int or {'small', 'medium', 'large'}): The font of the legend. If the "
        "value is numeric it is in points.\n"
        "- `title_fontsize` (int): The font size of the legend's title.\n"
        "- `loc` (str): The location of the legend. The bounding box can be changed via "
        "bbox_to_anchor.",
    )
    answer = await _answer_from_entry(
        legend, matplotlib, "How to change legend size with matplotlib.pyplot", embedder
    )
    assert "`fontsize=` (int or {'small', 'medium', 'large'})" in answer.text
    assert "`mode=`" not in answer.text
    # All of `fontsize` is what was asked; `title_fontsize` sets something else too. Nor is
    # "can be changed" a reason for a second keyword.
    font = await _answer_from_entry(
        legend, matplotlib, "How do I change the font size of a matplotlib legend?", embedder
    )
    assert "`fontsize=`" in font.text
    assert "`title_fontsize=`" not in font.text
    assert "`loc=`" not in font.text


def test_a_library_answer_is_held_to_its_own_floor() -> None:
    assert floor_for("How do I drop rows with NaN values in pandas?", "en", 0.8) == pytest.approx(
        0.8 + LIBRARY_FLOOR_OFFSET
    )
    assert floor_for("How do I reverse a list?", "en", 0.8) == 0.8
    korean = "pandas에서 NaN이 있는 행을 삭제하려면?"
    assert floor_for(korean, "ko", 0.8) == pytest.approx(
        0.8 + LIBRARY_FLOOR_OFFSET - GLOSSED_SCORE_LOSS
    )


async def test_a_library_answer_between_the_two_floors_is_declined(
    embedder: Embedder, evidence_score_only: None
) -> None:
    between = RELEVANCE_FLOOR + LIBRARY_FLOOR_OFFSET / 2
    answer = await _answer(
        "How do I drop rows with NaN values in a pandas DataFrame?",
        _pandas_evidence(between),
        embedder,
        Libraries(packs=[PANDAS]),
    )
    assert answer.declined
    assert answer.decline_reason == "below_relevance_floor"
    searched = next(line for line in answer.text.splitlines() if "**Searched:**" in line)
    assert searched.endswith(f"{PANDAS.name} {PANDAS.version}, installed."), (
        "the decline names the pack it searched, not the Python docs it left out"
    )
    assert "Python 3.11 documentation" not in searched
    answered = await _answer(
        "How do I drop rows with NaN values in a pandas DataFrame?",
        _pandas_evidence(RELEVANCE_FLOOR + LIBRARY_FLOOR_OFFSET + 0.01),
        embedder,
        Libraries(packs=[PANDAS]),
    )
    assert not answered.declined


async def test_an_entry_without_a_signature_shows_no_empty_code_block(embedder: Embedder) -> None:
    jar = api_unit("requests.cookies.RequestsCookieJar", "", "Compatibility class; a CookieJar.")
    jar.signatures = []
    answer = await _answer_from_entry(
        jar, REQUESTS, "What is the cookie jar class of requests?", embedder
    )
    assert "Use `requests.cookies.RequestsCookieJar`" in answer.text
    assert "```python\n```" not in answer.text


async def test_a_keyword_that_is_ignored_or_deprecated_is_never_recommended(
    embedder: Embedder,
) -> None:
    rename = api_unit(
        "pandas.DataFrame.rename",
        "pandas.DataFrame.rename(mapper=None, *, columns=None, copy=lib.no_default)",
        "Rename columns or index labels.\n\n**Parameters**\n\n"
        "- `copy` (bool, default False): This keyword is now ignored; changing its value will "
        "have no impact on the method.\n"
        "- `errors` (str): If 'raise', raise a KeyError when a dict-like mapper contains labels "
        "that are not present.\n",
    )
    answer = await _answer_from_entry(
        rename, PANDAS, "How do I change the column names of a pandas DataFrame?", embedder
    )
    assert "Use `pandas.DataFrame.rename`" in answer.text
    assert "`copy=" not in answer.text


async def test_the_example_shown_does_the_side_the_question_asks_for(embedder: Embedder) -> None:
    dropna = api_unit(
        "pandas.DataFrame.dropna",
        "pandas.DataFrame.dropna(*, axis=0, how=lib.no_default)",
        "Remove missing values.\n\n**Examples**\n\n"
        "```\n>>> df = pd.DataFrame({'name': ['Alfred', 'Batman'], 'toy': [np.nan, 'Batmobile']})"
        "\n```\n\n"
        "Drop the rows where at least one element is missing.\n\n"
        "```\n>>> df.dropna()\n     name        toy\n1  Batman  Batmobile\n```\n\n"
        "Drop the columns where at least one element is missing.\n\n"
        "```\n>>> df.dropna(axis='columns')\n       name\n0    Alfred\n1    Batman\n```\n\n"
        "Keep only the rows with at least 2 non-NA values.\n\n"
        "```\n>>> df.dropna(thresh=2)\n     name        toy\n1  Batman  Batmobile\n```",
    )

    async def example(question: str) -> str:
        answer = await _answer_from_entry(dropna, PANDAS, question, embedder)
        return answer.text.split("Example", 1)[1]

    assert ">>> df.dropna()" in await example("How do I drop rows with NaN values in pandas?")
    assert "axis='columns'" in await example("How do I drop columns with NaN values in pandas?")


MERGE = api_unit(
    "pandas.merge",
    "pandas.merge(left, right, how='inner', on=None, suffixes=('_x', '_y'))",
    "Merge DataFrame or named Series objects with a database-style join.\n\n**Examples**\n\n"
    "Merge two dataframes on a key column.\n\n"
    "```\n>>> df1.merge(df2, on='key', suffixes=(False, False))\n"
    "Traceback (most recent call last):\n...\n"
    "ValueError: columns overlap but no suffix specified\n```\n\n"
    "With the default suffixes:\n\n"
    "```\n>>> df1.merge(df2, on='key')\n  key  value_x  value_y\n0 foo 1 5\n```",
)


async def test_an_example_that_fails_is_shown_only_to_a_question_about_the_failure(
    embedder: Embedder,
) -> None:
    how = await _answer_from_entry(
        MERGE, PANDAS, "How to merge two dataframes on a key column in pandas?", embedder
    )
    assert ">>> df1.merge(df2, on='key')\n" in how.text
    assert "Traceback" not in how.text
    why = await _answer_from_entry(
        MERGE,
        PANDAS,
        "pandas merge on a key column raises ValueError: columns overlap, why?",
        embedder,
    )
    assert "Traceback (most recent call last)" in why.text


async def test_a_signature_written_out_in_the_docstring_is_no_example(embedder: Embedder) -> None:
    savefig = api_unit(
        "matplotlib.pyplot.savefig",
        "matplotlib.pyplot.savefig(fname, **kwargs)",
        "Save the current figure as an image or vector graphic to a file.\n\n"
        "Save a plot to a PNG file, call signature::\n\n"
        "```\nsavefig(fname, *, transparent=None, dpi='figure', format=None,\n"
        "        **kwargs\n       )\n```\n\nFor instance:\n\n"
        "```\nplt.savefig('plot.png', dpi=300)\n```",
    )
    answer = await _answer_from_entry(
        savefig,
        Pack("matplotlib", "3.11.2", "installed", "matplotlib", None, "test", ()),
        "How to save a plot to a PNG file with matplotlib?",
        embedder,
    )
    example = answer.text.split("**Example**", 1)[1]
    assert "plt.savefig('plot.png', dpi=300)" in example
    assert "transparent=None" not in example


async def test_no_keyword_is_explained_when_the_api_itself_answers(embedder: Embedder) -> None:
    answer = await _requests_answer("How do I send a POST request with requests?", embedder)
    assert not answer.declined
    assert "=` " not in answer.text


@pytest.mark.parametrize(
    ("question", "axis"),
    [
        ("First non-null value per row from a list of Pandas columns", "1"),
        ("Pandas DataFrame: replacing NaN with the row average", "1"),
        ("row-wise maximum of a 2D numpy array", "1"),
        ("mean across columns of a dataframe", "1"),
        ("How do I put two DataFrames side by side?", "1"),
        ("sum of each column of a numpy array", "0"),
        ("stack two arrays vertically", "0"),
        ("How do I drop rows with NaN values?", None),
        ("Get unique rows from a 2D numpy array", None),
        ("the largest value of each row and of each column", None),
    ],
)
def test_the_axis_a_question_asks_for(question: str, axis: str | None) -> None:
    assert axis_asked(question) == axis


BFILL = api_unit(
    "pandas.DataFrame.bfill",
    "pandas.DataFrame.bfill(*, axis=None, inplace=False, limit=None)",
    "Fill NA/NaN values by using the next valid observation to fill the gap.\n\n"
    "**Parameters**\n\n"
    "- `axis` ({0 or 'index', 1 or 'columns'}): Axis along which to fill missing values.\n"
    "- `inplace` (bool, default False): If True, fill in-place. Note: this will modify any "
    "other views on this object (e.g., a no-copy slice for a column in a DataFrame).\n"
    "- `limit` (int, default None): The maximum number of entries to fill.",
    directive="method",
    examples=[">>> df.bfill(axis='columns')", ">>> df.bfill(limit=1)"],
)


async def test_a_question_per_row_is_shown_the_axis_that_does_it(embedder: Embedder) -> None:
    per_row = await _answer_from_entry(
        BFILL, PANDAS, "First non-null value per row from a list of pandas columns", embedder
    )
    assert "`bfill(axis=1)` ({0 or 'index', 1 or 'columns'}) — Axis along which" in per_row.text
    assert "`inplace=" not in per_row.text
    per_column = await _answer_from_entry(
        BFILL, PANDAS, "pandas: fill NaN with the next value in each column", embedder
    )
    assert "`bfill(axis=0)`" in per_column.text
    # The example is of the axis the answer gives, or of none.
    assert ">>> df.bfill(axis='columns')" in per_row.text
    assert "df.bfill(limit=1)" in per_column.text
    assert "axis='columns'" not in per_column.text
    # A plot's axis is not a table's.
    grid = api_unit(
        "matplotlib.axes.Axes.grid",
        "matplotlib.axes.Axes.grid(visible=None, which='major', axis='both', **kwargs)",
        "Configure the grid lines.\n\n**Parameters**\n\n"
        "- `axis` ({'both', 'x', 'y'}, default: 'both'): The axis to apply the changes on.",
    )
    matplotlib = Pack("matplotlib", "3.11.2", "installed", "matplotlib", None, "test")
    lines = await _answer_from_entry(
        grid, matplotlib, "matplotlib: grid lines for each row of subplots", embedder
    )
    assert "axis=1" not in lines.text


def test_a_boolean_keyword_is_shown_switched_from_the_default_its_library_states() -> None:
    to_csv = (
        "Write object to a comma-separated values (csv) file.\n\n**Parameters**\n\n"
        "- `header` (bool or list of str, default True): Write out the column names.\n"
        "- `index` (bool): Write row names (index).\n"
        "- `sep` (str, default ','): Field delimiter for the output file.\n"
        "- `quiet` (bool): Say less.\n"
    )
    signature = ["pandas.DataFrame.to_csv(path_or_buf=None, *, index=True, quiet=None)"]
    assert switched_value("header", "bool or list of str, default True", to_csv, signature) == (
        "False"
    )
    assert switched_value("index", "bool", to_csv, signature) == "False"
    assert switched_value("sep", "str, default ','", to_csv, signature) is None
    # A boolean whose default no one states is shown without a value.
    assert switched_value("quiet", "bool", to_csv, signature) is None
    verify = parameters(REQUEST.text)[3]
    assert switched_value(*verify[:2], REQUEST.text, REQUEST.signatures) == "False"


async def test_an_entry_s_lists_are_not_quoted_as_its_prose(embedder: Embedder) -> None:
    dropna = api_unit(
        "pandas.DataFrame.dropna",
        "pandas.DataFrame.dropna(*, axis=0, subset=None, inplace=False)",
        "Remove missing values.\n\n**Parameters**\n\n"
        "- `inplace` (bool, default False): Whether to modify the DataFrame.\n\n"
        "**Returns**\n\n- `DataFrame or None`: DataFrame with NA entries dropped from it.\n\n"
        "**See also**\n\n- `DataFrame.isna`: Indicate missing values.\n\n"
        "Drop the rows where at least one element is missing.",
        directive="method",
    )
    answer = await _answer_from_entry(
        dropna, PANDAS, "How do I drop rows with NaN values in a pandas DataFrame?", embedder
    )
    assert "Remove missing values." in answer.text
    assert "Indicate missing values" not in answer.text
    assert "NA entries dropped" not in answer.text
    assert "Whether to modify" not in answer.text


async def test_another_entry_s_example_of_what_was_asked_beats_the_entry_s_own(
    embedder: Embedder,
) -> None:
    selenium = Pack("selenium", "4.51.0", "installed", "selenium", None, "test", ("selenium",))
    find = api_unit(
        "selenium.webdriver.Remote.find_element",
        "selenium.webdriver.Remote.find_element(by=By.ID, value=None)",
        "Find an element given a By strategy and locator.",
        examples=["element = driver.find_element(By.ID, 'foo')"],
    )
    by = api_unit(
        "selenium.webdriver.common.by.By",
        "selenium.webdriver.common.by.By()",
        "Set of supported locator strategies.",
        examples=['element = driver.find_element(By.XPATH, "//html/body/div")'],
    )
    index = DocsIndex(
        [find, by],
        np.zeros((2, 4), dtype=np.float32),
        [],
        np.zeros((0, 4), dtype=np.float32),
        pack=selenium,
    )
    evidence = [evidence_of(index.hit(0, 0.95)), evidence_of(index.hit(1, 0.9))]
    libraries = Libraries(packs=[selenium])
    xpath = await _answer(
        "How to find an element by XPath in Selenium?", evidence, embedder, libraries
    )
    assert 'driver.find_element(By.XPATH, "//html/body/div")' in xpath.text
    assert "By.ID, 'foo'" not in xpath.text
    # Asked nothing the other example shows more of, the entry's own.
    plain = await _answer("How to find an element in Selenium?", evidence, embedder, libraries)
    assert "driver.find_element(By.ID, 'foo')" in plain.text


TOLIST = api_unit(
    "pandas.Series.tolist",
    "pandas.Series.tolist()",
    "Return a list of the values.",
    examples=[">>> s = pd.Series([1, 2, 3])\n>>> s.to_list()\n[1, 2, 3]"],
    directive="method",
)
GET_DUMMIES = api_unit(
    "pandas.get_dummies",
    "pandas.get_dummies(data, prefix=None, sep='_')",
    "Convert categorical variable into dummy/indicator variables. Each variable is converted "
    "in as many 0/1 variables as there are different values. Columns in the output are each "
    "named after a value.",
    examples=[">>> pd.get_dummies(s)"],
)
DUMMIES = "Pandas convert a column of lists to dummies"


def test_an_answer_s_coverage_is_the_share_of_the_question_it_speaks_of() -> None:
    named = libraries_named(DUMMIES)
    tolist = answer_coverage(DUMMIES, named, ["**Use `pandas.Series.tolist`**", TOLIST.text])
    dummies = answer_coverage(
        DUMMIES, named, ["**Use `pandas.get_dummies`**", GET_DUMMIES.text, "`s.str.join('|')`"]
    )
    # "convert", "column", "list", "dummies": tolist speaks of "list" alone, get_dummies of
    # all but "list".
    assert tolist == pytest.approx(1 / 4)
    assert dummies > tolist
    # Names run together are read for the question's words (`dropna`: "drop").
    assert answer_coverage("drop the missing values", (), ["`df.dropna()`: missing values"]) == 1
    # A Korean question is covered through its English reading; with no words, half.
    korean = "pandas에서 결측값이 있는 행 삭제 drop rows missing"
    assert answer_coverage(korean, named, ["`dropna` drops rows with missing values"]) == 1
    assert answer_coverage("파이썬?", (), ["anything"]) == 0.5
    # Notes in italics (where the answer is quoted from) are not what it speaks of.
    assert answer_coverage("pandas installed", (), ["_quoted from pandas, installed._"]) == 0


async def test_an_answer_that_speaks_of_little_of_the_question_is_held_to_it(
    embedder: Embedder,
) -> None:
    floor = RELEVANCE_FLOOR + LIBRARY_FLOOR_OFFSET

    async def answer(entry: DocUnit, score: float) -> Answer:
        return await _answer_from_entry(entry, PANDAS, DUMMIES, embedder, score)

    # Matched above the floor, `tolist` says nothing of dummies: declined.
    wrong = await answer(TOLIST, floor + COVERAGE_WEIGHT / 8)
    assert wrong.declined
    assert wrong.decline_reason == "below_relevance_floor"
    # Matched a little below, `get_dummies` speaks of what was asked: answered.
    right = await answer(GET_DUMMIES, floor - COVERAGE_WEIGHT / 8)
    assert not right.declined
    assert "pandas.get_dummies" in right.text
    assert right.relevance is not None
    assert right.relevance >= floor


DJANGO = Pack("django", "5.2.19", "installed", "Django", None, "test", ("django",))
INHERITED = "Some lookups require Field.get_db_prep_value() to be called on their inputs."


def _lookup(name: str, lookup: str) -> DocUnit:
    """A Django lookup class as a pack holds it: the docstring it inherits, its lookup name."""
    return api_unit(name, f"{name}(lhs, rhs)", f'{INHERITED}\n\n`lookup_name = "{lookup}"`')


FILTER = api_unit(
    "django.db.models.QuerySet.filter",
    "django.db.models.QuerySet.filter(*args, **kwargs)",
    "Return a new QuerySet instance with the args ANDed to the existing set.",
    directive="method",
)


def _django_evidence(units: list[DocUnit]) -> list[Evidence]:
    index = DocsIndex(
        units,
        np.zeros((len(units), 4), dtype=np.float32),
        [],
        np.zeros((0, 4), dtype=np.float32),
        pack=DJANGO,
    )
    return [evidence_of(index.hit(i, 0.95 - 0.01 * i)) for i in range(len(units))]


async def _django_answer(question: str, units: list[DocUnit], embedder: Embedder) -> Answer:
    evidence = _django_evidence(units)
    return await _answer(question, evidence, embedder, Libraries(packs=[DJANGO]))


async def test_a_field_lookup_is_written_as_the_keyword_a_query_takes(embedder: Embedder) -> None:
    units = [
        FILTER,
        _lookup("django.db.models.lookups.GreaterThan", "gt"),
        _lookup("django.db.models.lookups.LessThan", "lt"),
        _lookup("django.db.models.lookups.LessThanOrEqual", "lte"),
    ]
    answer = await _django_answer(
        "How to do a less than or equal to filter in Django queryset?", units, embedder
    )
    # The lookup every word of whose name was asked, written where the answer's call takes it.
    assert "`filter(<field>__lte=...)` [1][2]" in answer.text
    # Others as keywords too, never as the docstring they inherit; the one shown not again.
    assert "`<field>__gt=...` — `django.db.models.lookups.GreaterThan`" in answer.text
    assert answer.text.count("__lte") == 1
    assert INHERITED not in answer.text
    # What it writes is in what it cites: the call in the query's entry, the name in the class's.
    assert check_grounding(answer, _django_evidence(units)).grounded
    # "Or equal" is its own lookup, not the one without it.
    at_least = await _django_answer(
        "django filter greater than or equal to a date",
        [*units, _lookup("django.db.models.lookups.GreaterThanOrEqual", "gte")],
        embedder,
    )
    assert "`filter(<field>__gte=...)`" in at_least.text
    # Asked for no lookup, none is written after the call.
    plain = await _django_answer("How do I filter a queryset in Django?", units, embedder)
    assert "filter(<field>__" not in plain.text


async def test_membership_in_a_list_is_the_in_lookup(embedder: Embedder) -> None:
    units = [
        FILTER,
        _lookup("django.db.models.lookups.In", "in"),
        _lookup("django.db.models.lookups.GreaterThan", "gt"),
    ]
    for question in (
        "How do I filter a Django queryset where the id is in a list?",
        "django filter objects whose pk is in [1, 2, 3]",
        "django queryset filter by a field in a list of values",
    ):
        answer = await _django_answer(question, units, embedder)
        assert "`filter(<field>__in=...)` [1][2]" in answer.text, question
    # "In" alone is in every question: filtering "in Django" asks for no lookup.
    plain = await _django_answer("How do I filter a queryset in Django?", units, embedder)
    assert "filter(<field>__" not in plain.text


async def test_a_date_part_is_a_lookup_and_a_class_that_needs_registering_is_not(
    embedder: Embedder,
) -> None:
    hour = api_unit(
        "django.db.models.functions.ExtractHour",
        "django.db.models.functions.ExtractHour(expression, lookup_name=None, tzinfo=None)",
        'Extract the hour.\n\n`lookup_name = "hour"`',
    )
    lower = api_unit(
        "django.db.models.functions.Lower",
        "django.db.models.functions.Lower(expression)",
        'Lower-case text.\n\n`lookup_name = "lower"`',
    )
    by_hour = await _django_answer("Django filter by hour", [FILTER, hour, lower], embedder)
    assert "`filter(<field>__hour=...)`" in by_hour.text
    # The last hour is a span of time, not the hour's number.
    recent = await _django_answer(
        "Django filter objects created in the last hour", [FILTER, hour], embedder
    )
    assert "filter(<field>__hour" not in recent.text
    lowered = await _django_answer(
        "Django filter on the lower case of a name", [FILTER, lower], embedder
    )
    # `Lower` is no lookup of a field until a project registers it.
    assert "__lower" not in lowered.text


async def test_an_example_caption_ending_in_a_colon_is_not_quoted(embedder: Embedder) -> None:
    nlargest = api_unit(
        "pandas.DataFrame.nlargest",
        "pandas.DataFrame.nlargest(n, columns, keep='first')",
        "Return the first n rows ordered by columns in descending order.\n\n"
        "**Examples**\n\n"
        "The largest values of a column in a pandas DataFrame:\n\n"
        '```\n>>> df.nlargest(3, "population")\n```',
        directive="method",
        examples=['>>> df.nlargest(3, "population")'],
    )
    answer = await _answer_from_entry(
        nlargest, PANDAS, "How do I get the largest values of a column in pandas?", embedder
    )
    # It introduces its example, and dangles quoted alone ("...DataFrame: [1]").
    assert "The largest values of a column in a pandas DataFrame" not in answer.text
    assert "Return the first n rows ordered by columns in descending order. [1]" in answer.text


async def test_an_entry_s_list_items_and_example_captions_are_not_run_into_its_prose(
    embedder: Embedder,
) -> None:
    loc = api_unit(
        "pandas.DataFrame.loc",
        "pandas.DataFrame.loc",
        "Access a group of rows and columns by label(s) or a boolean array.\n\n"
        "Allowed inputs are:\n\n"
        "- A boolean array of the same length as the axis being sliced, e.g. "
        "`[True, False, True]`.\n"
        "- An alignable boolean Series. The index of the key will be aligned before masking.\n\n"
        "**Examples**\n\n**Getting values**\n\nSingle label for row and column\n\n"
        '```\n>>> df.loc["cobra", "shield"]\n2\n```\n\n'
        "A boolean Series selects the rows where it is True.\n\n"
        '```\n>>> df.loc[df["shield"] > 6]\n```',
        directive="property",
        examples=['>>> df.loc["cobra", "shield"]\n2'],
    )
    answer = await _answer_from_entry(
        loc, PANDAS, "How do I select rows of a pandas dataframe with a boolean series?", embedder
    )
    assert "`[True, False, True]`. - An" not in answer.text
    assert "Single label for row and column" not in answer.text
    assert "Getting values" not in answer.text
    # A caption that is a sentence says what the API does.
    assert "A boolean Series selects the rows where it is True. [1]" in answer.text
    assert '>>> df.loc[df["shield"] > 6]' in answer.text
