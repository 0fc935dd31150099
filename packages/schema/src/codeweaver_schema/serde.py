"""The checkpoint serializer of every CodeWeaver graph: the schema's models, registered.

LangGraph revives a custom type from msgpack only when it is on the serializer's allow-list;
unregistered types are revived with a warning today and blocked under
`LANGGRAPH_STRICT_MSGPACK=true` (the coming default). A blocked model does not fail loudly: the
value comes back as something else and, for example, an answer loses its citations. So every
place CodeWeaver's values are serialized (checkpointers, and the search subgraph's node cache)
uses this serializer, which revives exactly the schema's models and nothing else.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel

import codeweaver_schema.models as schema_models


def schema_types() -> list[tuple[str, str]]:
    """(module, name) of every model in `codeweaver_schema.models`: what checkpoints hold."""
    return sorted(
        (obj.__module__, obj.__name__)
        for obj in vars(schema_models).values()
        if inspect.isclass(obj)
        and issubclass(obj, BaseModel)
        and obj.__module__ == schema_models.__name__
    )


class RegisteredSerializer(JsonPlusSerializer):
    """A serializer whose allow-list is explicit and complete: graphs do not extend it.

    Under strict msgpack LangGraph derives an allow-list from each graph's state and context
    schemas and, when it adds anything, clones the checkpointer to merge it in. On the
    development server the checkpointer is LangGraph API's adapter around ours, whose
    `__getattr__` recurses when the clone is made (langgraph-api 0.16.7): the cache subgraphs,
    whose context schema is no checkpoint type, failed with RecursionError. Every type that
    lands in a checkpoint is registered here instead, so there is nothing to merge.
    """

    def with_msgpack_allowlist(self, extra_allowlist: object) -> RegisteredSerializer:
        """This serializer itself: its registry already holds every checkpointed type."""
        return self


def schema_serializer(extra: Iterable[type[BaseModel]] = ()) -> RegisteredSerializer:
    """A serializer that revives exactly the schema's models, `extra` and LangGraph's safe types.

    Args:
        extra: Models of other packages that land in checkpoints too (a subgraph's state).
    """
    allowed = schema_types() + sorted((cls.__module__, cls.__name__) for cls in extra)
    return RegisteredSerializer(allowed_msgpack_modules=allowed)
