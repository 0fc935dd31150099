import pytest
from langchain_google_genai import ChatGoogleGenerativeAI
from langchain_openai import ChatOpenAI

from codeweaver_runtime import (
    ContextError,
    ModelNameError,
    RuntimeContext,
    build_chat_model,
    default_chat_model_name,
    model_base_url,
    operator_model_names,
    parse_model_name,
)
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


def _key(model: object) -> str | None:
    secret = getattr(model, "openai_api_key", None) or getattr(model, "google_api_key", None)
    return secret.get_secret_value() if secret is not None else None


def test_a_role_model_at_its_own_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-secret")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://proxy.example/v1")
    monkeypatch.delenv("CODEWEAVER_MODEL_SERVER_KEY", raising=False)
    local = build_chat_model("openai:qwen2.5-coder@http://127.0.0.1:11434/v1/", timeout_s=5)
    assert isinstance(local, ChatOpenAI)
    assert local.model_name == "qwen2.5-coder"
    assert local.openai_api_base == "http://127.0.0.1:11434/v1"
    # The OpenAI key is for OpenAI's (or OPENAI_BASE_URL's) server, never another one.
    assert _key(local) == "not-needed"
    monkeypatch.setenv("CODEWEAVER_MODEL_SERVER_KEY", "vllm-key-0123")
    assert _key(build_chat_model("openai:m@http://10.0.0.5:8000/v1", timeout_s=5)) == (
        "vllm-key-0123"
    )
    same = build_chat_model("openai:gpt-4o@https://proxy.example/v1", timeout_s=5)
    assert _key(same) == "sk-openai-secret"
    assert _key(build_chat_model("openai:gpt-4o", timeout_s=5)) == "sk-openai-secret"


def test_gemini_at_a_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "google-secret-key")
    monkeypatch.setenv("CODEWEAVER_MODEL_SERVER_KEY", "gateway-key-0123")
    model = build_chat_model("google_genai:gemini-2.5-flash@https://gw.example/gemini", timeout_s=5)
    assert isinstance(model, ChatGoogleGenerativeAI)
    assert model.base_url == "https://gw.example/gemini"
    assert _key(model) == "gateway-key-0123"


@pytest.mark.parametrize(
    ("name", "model", "url"),
    [
        (
            "openai:llama3.1:8b@http://127.0.0.1:11434/v1",
            "llama3.1:8b",
            "http://127.0.0.1:11434/v1",
        ),
        ("openai:claude-3-5-sonnet@20240620", "claude-3-5-sonnet@20240620", None),
        (
            "google_genai:gemini-2.5-flash@https://gw.example",
            "gemini-2.5-flash",
            "https://gw.example",
        ),
    ],
)
def test_model_names_with_and_without_a_server(name: str, model: str, url: str | None) -> None:
    spec = parse_model_name(name)
    assert spec is not None
    assert (spec.model, spec.base_url) == (model, url)
    assert model_base_url(name) == url


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("openai:m@http://user:pw@host/v1", "credentials"),
        ("openai:m@http:///v1", "no host"),
        ("openai:m@https://host/v1?key=1", "query"),
        ("ollama:llama3", "unknown model provider"),
    ],
)
def test_unusable_model_names_are_refused_clearly(name: str, problem: str) -> None:
    with pytest.raises(ModelNameError, match=problem):
        parse_model_name(name)
    with pytest.raises(ContextError, match=f"answer_model must be .*{problem}"):
        RuntimeContext(answer_model=name)


def test_the_operator_configures_models_per_role(monkeypatch: pytest.MonkeyPatch) -> None:
    local = "openai:qwen2.5-coder@http://127.0.0.1:11434/v1"
    monkeypatch.setenv("CODEWEAVER_ANSWER_MODEL", local)
    monkeypatch.setenv("CODEWEAVER_CHAT_MODEL", "openai:gpt-4o-mini")
    ctx = RuntimeContext()
    assert ctx.model_for("answer") == local
    assert ctx.model_for("judge") == "openai:gpt-4o-mini"
    assert local in operator_model_names()
