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


def schema_serializer() -> JsonPlusSerializer:
    """A serializer that revives exactly the schema's models (and LangGraph's safe types)."""
    return JsonPlusSerializer(allowed_msgpack_modules=schema_types())
