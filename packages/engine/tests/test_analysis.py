import pytest
from langchain_core.messages import AIMessage, HumanMessage

from codeweaver_engine.analysis import (
    analyze_offline,
    canonical_question,
    classify_turn,
    exception_line,
    is_code_only,
)
from codeweaver_runtime import Embedder

HISTORY = [
    HumanMessage("How do I reverse a list in Python?"),
    AIMessage(
        "Use list.reverse() to reverse in place [1], or reversed() for an iterator [2].\n\n"
        "```python\n>>> s.reverse()\n```"
    ),
]


def test_greetings_and_thanks_leave_the_cache_key() -> None:
    assert canonical_question("Hi, how do I reverse a list?  Thanks!") == "how do I reverse a list?"


def test_exception_line_is_the_last_error_of_a_trace() -> None:
    trace = "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'name'"
    assert exception_line(trace) == "KeyError: 'name'"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Can you show an example of that?", "clarification"),
        ("Why does it return None?", "new_topic"),
        ("Can you explain that in more detail?", "clarification"),
        ("그게 무슨 뜻이에요?", "clarification"),
        ("How do I read a CSV file with pandas?", "new_topic"),
    ],
)
def test_turn_type_in_a_thread(question: str, expected: str) -> None:
    assert classify_turn(question, HISTORY, offline=True)[0] == expected


def test_offline_an_example_the_thread_does_not_hold_is_a_new_search() -> None:
    no_code = [HISTORY[0], AIMessage("Use list.reverse() to reverse in place [1].")]
    offline = classify_turn("Can you show an example of that?", no_code, offline=True)
    assert offline[0] == "new_topic"
    # A model writes the example from the thread: one call, no search.
    assert classify_turn("Can you show an example of that?", no_code)[0] == "clarification"
    assert classify_turn("Why does it return None?", HISTORY)[0] == "clarification"


def test_no_history_is_independent() -> None:
    assert classify_turn("Can you show an example of that?", [])[0] == "independent"


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("I get TypeError: 'NoneType' object is not subscriptable, why?", "debugging"),
        ("Please review my code for a binary search and suggest improvements", "code_review"),
        ("What is the difference between a list and a tuple?", "learning"),
        ("How do I reverse a list in Python?", "learning"),
    ],
)
async def test_intent(question: str, intent: str, embedder: Embedder) -> None:
    analysis = await analyze_offline(question, [], embedder)
    assert analysis.intent == intent


async def test_korean_question(embedder: Embedder) -> None:
    analysis = await analyze_offline("파이썬에서 리스트를 뒤집는 방법은?", [], embedder)
    assert analysis.language == "ko"
    assert analysis.question_type == "independent"
    assert analysis.should_cache


async def test_stack_trace_only_searches_for_the_exception(embedder: Embedder) -> None:
    trace = (
        "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'name'"
    )
    analysis = await analyze_offline(trace, [], embedder)
    assert analysis.intent == "debugging"
    # The exception line, with the language the trace's format gives away.
    assert analysis.standalone_question == "Python KeyError: 'name'"
    assert not analysis.should_cache


@pytest.mark.parametrize(
    ("trace", "expected"),
    [
        (
            "TypeError: Cannot read properties of undefined (reading 'map')\n"
            "    at App (App.js:12:19)\n"
            "    at renderWithHooks (react-dom.development.js:14985:18)",
            "JavaScript TypeError: Cannot read properties of undefined (reading 'map')",
        ),
        (
            "Uncaught TypeError: x.map is not a function\n"
            "    at main (http://localhost:3000/static/js/main.js:12:19)",
            "JavaScript TypeError: x.map is not a function",
        ),
        (
            'Exception in thread "main" java.lang.NullPointerException: Cannot invoke '
            '"String.length()" because "s" is null\n\tat com.example.Main.main(Main.java:5)',
            'java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null',
        ),
        (
            'Exception in thread "main" java.lang.RuntimeException: boom\n'
            "\tat com.example.Main.main(Main.java:5)\n"
            "Caused by: java.io.FileNotFoundException: config.yml (No such file or directory)\n"
            "\tat java.io.FileInputStream.open0(Native Method)\n\t... 3 more",
            "java.io.FileNotFoundException: config.yml (No such file or directory)",
        ),
    ],
)
async def test_other_runtimes_traces_search_for_their_root_exception(
    trace: str, expected: str
) -> None:
    analysis = await analyze_offline(trace, [], None)
    assert analysis.intent == "debugging"
    assert analysis.standalone_question == expected


@pytest.mark.parametrize(
    ("code", "language", "used"),
    [
        ("for i in range(10):\n    print(i)\nx = [1, 2, 3]\nx.reverse()\n", "Python", "reverse"),
        ("```python\nimport json\ndata = json.loads(text)\n```", "Python", "json"),
        (
            "const ids = items.map(x => x.id);\nconsole.log(ids.filter(Boolean));",
            "JavaScript",
            "map",
        ),
    ],
)
async def test_code_without_a_question_searches_for_what_it_uses(
    code: str, language: str, used: str
) -> None:
    assert is_code_only(code)
    analysis = await analyze_offline(code, [], None)
    assert analysis.intent == "code_review"
    assert analysis.standalone_question.startswith(f"{language} code using ")
    assert used in analysis.standalone_question
    assert "```" not in analysis.standalone_question


@pytest.mark.parametrize(
    "text",
    [
        "How do I use print() in Python?",
        "Why is x = 1 wrong here",
        "my_list.reverse() returns None, why",
        "convert a string of bytes into an int (python)",
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'a'",
        "",
    ],
)
def test_questions_about_code_are_not_code_only(text: str) -> None:
    assert not is_code_only(text)


async def test_clarifications_are_never_cached(embedder: Embedder) -> None:
    analysis = await analyze_offline("Can you show an example of that?", HISTORY, embedder)
    assert analysis.question_type == "clarification"
    assert not analysis.should_cache
