"""Run settings shared by every graph, checked where they enter.

Each package's context dataclass inherits `RuntimeContext`, and the backend's context inherits
all of them, so a subgraph added as a node reads the parent's context unchanged. LangGraph
Studio shows these fields, with their descriptions, as the assistant's configuration.

A run context comes from whoever starts the run, which under LangGraph Server is any
authenticated client. So every field is checked when the context is built (`__post_init__`,
which LangGraph calls when it turns the client's dict into the dataclass): values of the wrong
type are coerced when the meaning is plain ("3" for 3, "no" for False) and refused otherwise,
numbers are clamped to the range in the field's `bounds` metadata, choices must be among
the allowed ones, and model names (`model_name` metadata) must name a provider and a model.
Settings that reach a file, a process or a network address are not run settings at all: they
are the operator's (`codeweaver_runtime.infrastructure`). A model name may carry its server's
base URL (`provider:model@url`): accepted here, for the operator's environment and command
line, and refused in a served client's context by `codeweaver.server.auth` unless the operator
configured exactly that name.
"""

from __future__ import annotations

import math
import os
import re
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Unpack, get_args, get_origin, overload

from typing_extensions import TypedDict

from codeweaver_runtime.model_names import (
    MODEL_NAME_HELP,
    OFFLINE,
    ModelNameError,
    parse_model_name,
)

if TYPE_CHECKING:
    from langgraph.runtime import Runtime

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MAX_TEXT_SETTING_CHARS = 256
"""Longest text a text setting (a model name, a version tag) may hold."""
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0", ""})


class ContextError(ValueError):
    """A run-context value that cannot mean anything sensible for its field."""


def default_data_dir() -> Path:
    """Where CodeWeaver keeps its vector store and checkpoints unless told otherwise.

    `CODEWEAVER_HOME` wins; otherwise the XDG data directory. It is outside the project folder
    on purpose: `langgraph dev` reloads on changes inside the project.
    """
    configured = os.environ.get("CODEWEAVER_HOME")
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "codeweaver"


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def default_chat_model_name() -> str:
    """The model used when none is configured: the first provider with a key, else offline."""
    configured = os.environ.get("CODEWEAVER_CHAT_MODEL")
    if configured:
        return configured
    if os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL"):
        return "openai:gpt-4o-mini"
    if os.environ.get("GOOGLE_API_KEY"):
        return "google_genai:gemini-2.5-flash"
    return OFFLINE


_T = TypeVar("_T")


class SettingChecks(TypedDict, total=False):
    """What `validate_fields` checks of a setting, beyond its type (its field metadata)."""

    bounds: tuple[float, float]
    """Inclusive range a number is clamped to."""
    pattern: str
    """Regular expression the whole text must match."""
    pattern_help: str
    """What `pattern` accepts, in words, for the refusal's message."""
    model_name: bool
    """The text must name a model (`provider:model`, or `offline`)."""


@overload
def setting(default: _T, *, description: str, **checks: Unpack[SettingChecks]) -> _T: ...


@overload
def setting(
    *, factory: Callable[[], _T], description: str, **checks: Unpack[SettingChecks]
) -> _T: ...


def setting(
    default: Any = MISSING,
    *,
    factory: Callable[[], Any] | None = None,
    description: str,
    **checks: Unpack[SettingChecks],
) -> Any:
    """A run-context field: its default (or `factory`), its help, and what is checked of it.

    Args:
        default: The value when the client sends none.
        factory: Makes the default instead, when it is mutable or read from the environment.
        description: What Studio shows as the setting's help.
        **checks: What `validate_fields` checks besides the type (`SettingChecks`).
    """
    metadata = {"description": description, **checks}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(kw_only=True)
class RuntimeContext:
    """Models, embeddings and storage: what every CodeWeaver graph may need."""

    chat_model: str = setting(
        factory=default_chat_model_name,
        model_name=True,
        description="Chat model as provider:model (openai:gpt-4o-mini, "
        "google_genai:gemini-2.5-flash), or 'offline' for the built-in engine. Defaults to "
        "the first provider with a key in the environment, else offline. A model at its own "
        "server (provider:model@URL) only as the operator configured it.",
    )
    planner_model: str = setting(
        factory=lambda: _env("CODEWEAVER_PLANNER_MODEL"),
        model_name=True,
        description="Model for planning and analysis; empty uses chat_model.",
    )
    judge_model: str = setting(
        factory=lambda: _env("CODEWEAVER_JUDGE_MODEL"),
        model_name=True,
        description="Model for rerank, sufficiency and grading; empty uses chat_model.",
    )
    answer_model: str = setting(
        factory=lambda: _env("CODEWEAVER_ANSWER_MODEL"),
        model_name=True,
        description="Model that writes answers; empty uses chat_model.",
    )
    model_timeout_s: float = setting(
        60.0,
        bounds=(1.0, 600.0),
        description="Timeout of one chat-model call, in seconds (1 to 600).",
    )
    tenant: str = setting(
        "default", description="Tenant or user whose documents and cache entries are used."
    )

    def __post_init__(self) -> None:
        """Coerce, clamp or refuse every field (see the module docstring)."""
        validate_fields(self)

    def model_for(self, role: str) -> str:
        """The model name for a role ('planner', 'judge', 'answer'), falling back to chat_model."""
        specific = {
            "planner": self.planner_model,
            "judge": self.judge_model,
            "answer": self.answer_model,
        }.get(role, "")
        return specific or self.chat_model


_C = TypeVar("_C", bound=RuntimeContext)


def run_context(runtime: Runtime[Any], kind: type[_C]) -> _C:
    """The run's context as `kind`, or `kind`'s defaults when the graph runs without one.

    Studio and a bare `invoke` may start a run with no context; every package reads it this way.
    """
    context = runtime.context
    return context if isinstance(context, kind) else kind()


_FIELD_TYPES: dict[type[RuntimeContext], dict[str, Any]] = {}


def _field_types(cls: type[RuntimeContext]) -> dict[str, Any]:
    # Annotations are strings (postponed evaluation); resolve them once per context class.
    if cls not in _FIELD_TYPES:
        _FIELD_TYPES[cls] = typing.get_type_hints(cls)
    return _FIELD_TYPES[cls]


def validate_fields(context: RuntimeContext) -> None:
    """Check and normalise every dataclass field of a run context in place.

    Raises:
        ContextError: A value has a type that cannot be read as the field's, or a choice that is
            not allowed; the message names the field and what it accepts.
    """
    types = _field_types(type(context))
    for spec in fields(context):
        value = getattr(context, spec.name)
        bounds = spec.metadata.get("bounds")
        coerced = _coerce(spec.name, value, types[spec.name], bounds)
        pattern = spec.metadata.get("pattern")
        if pattern is not None and not re.fullmatch(pattern, str(coerced)):
            raise _refuse(spec.name, value, spec.metadata.get("pattern_help", pattern))
        if spec.metadata.get("model_name"):
            try:
                parse_model_name(str(coerced))
            except ModelNameError as exc:
                raise ContextError(
                    f"run context: {spec.name} must be {MODEL_NAME_HELP}: {exc}"
                ) from None
        setattr(context, spec.name, coerced)


def _refuse(name: str, value: object, expected: str) -> ContextError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return ContextError(f"run context: {name} must be {expected}, got {shown}")


def _coerce(name: str, value: object, kind: Any, bounds: tuple[float, float] | None) -> object:
    if kind is bool:
        return _as_bool(name, value)
    if kind is int:
        number = _as_number(name, value, "an integer")
        if not float(number).is_integer():
            raise _refuse(name, value, "an integer")
        return int(_clamp(number, bounds))
    if kind is float:
        return float(_clamp(_as_number(name, value, "a number"), bounds))
    if kind is str:
        if not isinstance(value, str):
            raise _refuse(name, value, "text")
        if len(value) > MAX_TEXT_SETTING_CHARS or "\x00" in value:
            raise _refuse(name, value, f"text of at most {MAX_TEXT_SETTING_CHARS} characters")
        return value.strip()
    if get_origin(kind) is list:
        (item,) = get_args(kind)
        return _as_choices(name, value, item)
    return value


def _as_bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise _refuse(name, value, "true or false")


def _as_number(name: str, value: object, expected: str) -> float:
    if isinstance(value, bool):
        raise _refuse(name, value, expected)
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise _refuse(name, value, expected) from None
    else:
        raise _refuse(name, value, expected)
    if not math.isfinite(number):
        raise _refuse(name, value, f"{expected} (finite)")
    return number


def _clamp(number: float, bounds: tuple[float, float] | None) -> float:
    if bounds is None:
        return number
    low, high = bounds
    return min(max(number, low), high)


def _as_choices(name: str, value: object, item: Any) -> list[str]:
    allowed = get_args(item) if get_origin(item) is Literal else ()
    given = [part.strip() for part in value.split(",")] if isinstance(value, str) else value
    expected = "a list of " + (", ".join(allowed) if allowed else "text")
    if not isinstance(given, list | tuple) or not all(isinstance(v, str) for v in given):
        raise _refuse(name, value, expected)
    chosen = [v.strip() for v in given if v.strip()]
    unknown = [v for v in chosen if allowed and v not in allowed]
    if unknown:
        raise ContextError(
            f"run context: {name} has unknown value(s) {', '.join(map(repr, unknown))}; "
            f"allowed: {', '.join(allowed)}"
        )
    return list(dict.fromkeys(chosen))
