from __future__ import annotations

import pytest

from codeweaver_engine.scope import scope_of


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("How can I rename a local git branch?", "Git"),
        ("git에서 이미 push한 커밋의 메시지를 수정하려면?", "Git"),
        ("실행 중인 도커 컨테이너 안에 들어가려면?", "Docker"),
        ("kubectl: scale a deployment to 5 replicas", "Kubernetes"),
        ("How do I read a file line by line in Go?", "Go"),
        ("What's the idiomatic way to parse a String into an i32 in Rust?", "Rust"),
        ("HashMap or Hashtable in Java?", "Java"),
        ("bash: test whether a file exists before reading it", "the shell"),
        ("Why does LEFT JOIN drop rows in PostgreSQL?", "SQL"),
        (
            "Uncaught TypeError: Cannot read properties of null (reading 'addEventListener')",
            "JavaScript",
        ),
        ("should package-lock.json be committed?", "JavaScript"),
        ("this.setState is not a function inside a callback", "JavaScript"),
        ("Averaging columns of a pandas DataFrame in Python", "pandas"),
        ("In Django, how do I check if a user is in a group?", "Django"),
    ],
)
def test_what_the_documentation_does_not_cover(question: str, topic: str) -> None:
    scope = scope_of(question)
    assert not scope.covered
    assert scope.topic == topic


@pytest.mark.parametrize(
    "question",
    [
        "How to force os.system() to use bash instead of sh",
        "How to call a shell script from python code?",
        "Python vs Java: sorting a list",
        "Insert strings with quotes into a sqlite db with Python",
        "make a time delay",
        "Let's go: how do I reverse a list?",
        "How do I get red wine stains out of a carpet?",
        "TypeError: 'NoneType' object is not subscriptable",
        "read a json file into a dict",
    ],
)
def test_python_questions_and_plain_ones_are_left_to_the_floor(question: str) -> None:
    assert scope_of(question).covered
