import pytest
from langchain_google_genai import ChatGoogleGenerativeAI
from langchain_openai import ChatOpenAI

from codeweaver_runtime import RuntimeContext, build_chat_model, default_chat_model_name
from codeweaver_runtime.chat import ConfiguredChatModels


def test_offline_is_no_model() -> None:
    assert build_chat_model("offline", timeout_s=5) is None
    assert build_chat_model("", timeout_s=5) is None


def test_openai_with_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = build_chat_model("openai:gpt-4o-mini", timeout_s=7)
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "gpt-4o-mini"
    assert model.request_timeout == 7


def test_openai_compatible_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    model = build_chat_model("openai:llama3.1", timeout_s=5)
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == "http://127.0.0.1:11434/v1"


def test_gemini(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "test-key")
    assert isinstance(
        build_chat_model("google_genai:gemini-2.5-flash", timeout_s=5), ChatGoogleGenerativeAI
    )


@pytest.mark.parametrize("name", ["gpt-4o", "anthropic:claude", "openai:"])
def test_bad_names_are_clear_errors(name: str) -> None:
    with pytest.raises(ValueError, match="provider"):
        build_chat_model(name, timeout_s=5)


def test_default_model_follows_the_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("CODEWEAVER_CHAT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "GOOGLE_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    assert default_chat_model_name() == "offline"
    monkeypatch.setenv("GOOGLE_API_KEY", "k")
    assert default_chat_model_name() == "google_genai:gemini-2.5-flash"
    monkeypatch.setenv("CODEWEAVER_CHAT_MODEL", "openai:gpt-4.1")
    assert default_chat_model_name() == "openai:gpt-4.1"


def test_roles_fall_back_to_the_chat_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    ctx = RuntimeContext(chat_model="openai:gpt-4o-mini", judge_model="offline")
    models = ConfiguredChatModels(ctx)
    assert isinstance(models.for_role("planner"), ChatOpenAI)
    assert models.for_role("judge") is None
    assert models.for_role("planner") is models.for_role("answer")
