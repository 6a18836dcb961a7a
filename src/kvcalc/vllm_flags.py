"""The ``vllm serve`` flags kvcalc has no option for, sorted by what they do to the KV cache, so a
serve line pasted into the CLI either works or says precisely why not.

Flags that leave GPU memory alone (networking, parsers, logging, the tokenizer) are ignored with a
note; flags that change what vLLM sizes but that kvcalc does not model are refused with the reason,
since answering without them would print a pool vLLM will not build. Names as in
``vllm/engine/arg_utils.py`` and ``vllm/entrypoints/openai/cli_args.py`` (v0.10 to v0.33).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .messages import Text

_OPT_LEVEL = re.compile(r"-O(?:[0-3]|\..*)?")

SPEC_SHORTHAND = {"--spec-method": "method", "--spec-model": "model", "--spec-tokens": "num_speculative_tokens"}
"""vLLM's shorthand for --speculative-config keys (v0.22+, vllm/engine/arg_utils.py
create_speculative_config); the CLI and a pasted command read them alike."""


COMPILATION_KEYS = ("cudagraph_mode", "cudagraph_capture_sizes", "max_cudagraph_capture_size")
"""The keys of vLLM's compilation config (--compilation-config / -O as JSON, or dotted
-O.cudagraph_mode=… up to v0.11, -cc.cudagraph_mode=… from v0.12, --compilation-config.cudagraph_mode=… in
every release) that kvcalc reads: each is one of its settings."""

ATTENTION_KEYS = {"backend": "attention_backend"}
"""The keys of vLLM's attention config (--attention-config as JSON, or dotted
--attention-config.backend, v0.13+: vllm/config/attention.py) that kvcalc reads, with the setting
each gives."""

_CONFIG_FLAGS = {"--compilation-config": "compilation", "-cc": "compilation", "-O": "compilation",
                 "--attention-config": "attention"}
"""The config flags by the config they set: -cc is the compilation config's short name from v0.12
(vllm/engine/arg_utils.py), where -O became the optimization level; -O up to v0.11."""


LEVELS = ("0", "1", "2", "3")
"""The optimization levels (-O0 … -O3, Rule.OPTIMIZATION_LEVELS) as a serve line writes them."""
_LEVEL_FLAG = re.compile(r"-O=?([0-3])")


def expand_level_flags(tokens: list[str]) -> list[str]:
    """The serve-line tokens with an optimization level spelled as --optimization-level N, as vLLM's
    own parser rewrites -O3, -O=1 and -O 2 before reading them (vllm/utils/argparse_utils.py
    FlexibleArgumentParser.parse_args, v0.12+; up to v0.11 the same spellings set the compilation
    level, of which kvcalc reads the default 3: settings.resolve)."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        m = _LEVEL_FLAG.fullmatch(token)
        if m:
            out += ["--optimization-level", m.group(1)]
        elif token == "-O" and i + 1 < len(tokens) and tokens[i + 1] in LEVELS:
            out.append("--optimization-level")
        else:
            out.append(token)
    return out


def config_flag(flag: str) -> tuple[str, str] | None:
    """For a serve-line flag (without its ``=value``), the config it sets ("compilation" for
    --compilation-config, -cc and -O, "attention" for --attention-config) and the key a dotted form names
    (``-O.cudagraph_mode`` -> "cudagraph_mode"; "" for the whole config as JSON), or None for any
    other flag (an optimization level -O3 included)."""
    base, dot, key = flag.partition(".")
    which = _CONFIG_FLAGS.get(base)
    if which is None:
        return None
    return which, key.replace("-", "_") if dot else ""


def dotted_value(value: str | None) -> Any:
    """The value of a dotted config flag (-O.max_cudagraph_capture_size=512,
    --compilation-config.cudagraph_capture_sizes '[1,2,4]', --attention-config.backend FLASHINFER):
    JSON where it is, else the text."""
    try:
        return json.loads(value) if value is not None else None
    except ValueError:
        return value


def read_config(which: str, value: Any) -> tuple[dict[str, Any], Text | None]:
    """The settings a compilation or attention config gives (values as written: the core names a
    bad one), and why the rest cannot be read (None where nothing is left): a key kvcalc does not
    model changes what vLLM compiles, captures or runs in ways it does not size, and text that is no
    JSON object says nothing it can read (a level after -O is --optimization-level: expand_level_flags)."""
    unreadable = Text("flags.compilation") if which == "compilation" else Text("flags.attention_config_json")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}, unreadable
    if not isinstance(value, dict):
        return {}, unreadable
    if which == "attention":
        read = {ATTENTION_KEYS[k]: v for k, v in value.items() if k in ATTENTION_KEYS}
        rest = [str(k) for k in value if k not in ATTENTION_KEYS]
        return read, (Text("flags.attention_config", keys=", ".join(rest[:8])) if rest else None)
    read = {k: v.strip().upper() if k == "cudagraph_mode" and isinstance(v, str) else v
            for k, v in value.items() if k in COMPILATION_KEYS}
    rest = [str(k) for k in value if k not in COMPILATION_KEYS]
    return read, (Text("flags.compilation_keys", keys=", ".join(rest[:8])) if rest else None)


def moe_backend_marlin(value: object) -> bool:
    """Whether ``--moe-backend`` (v0.24+, vllm/config/kernel.py) asks for Marlin: the one MoE kernel
    choice kvcalc sizes (MXFP4 experts' padding, Settings.mxfp4_marlin); any other keeps the
    release's own choice."""
    return str(value).lower() == "marlin"


WITHOUT_MEMORY = frozenset({
    # the API server
    "--host", "--port", "--uds", "--uvicorn-log-level", "--disable-uvicorn-access-log", "--allow-credentials",
    "--allowed-origins", "--allowed-methods", "--allowed-headers", "--api-key", "--ssl-keyfile",
    "--ssl-certfile", "--ssl-ca-certs", "--ssl-cert-reqs", "--root-path", "--middleware",
    "--enable-ssl-refresh", "--disable-fastapi-docs", "--enable-request-id-headers",
    "--enable-server-load-tracking", "--enable-force-include-usage", "--enable-prompt-tokens-details",
    "--disable-frontend-multiprocessing", "--api-server-count", "-asc", "--headless",
    # what the server answers with
    "--served-model-name", "--chat-template", "--chat-template-content-format", "--response-role",
    "--enable-auto-tool-choice", "--tool-call-parser", "--tool-parser-plugin", "--reasoning-parser",
    "--return-tokens-as-token-ids", "--max-logprobs", "--generation-config", "--override-generation-config",
    "--guided-decoding-backend", "--structured-outputs-config", "--logits-processors",
    "--default-chat-template-kwargs", "--enable-log-outputs", "--reasoning-parser-plugin", "--stream-interval",
    # logging and metrics
    "--disable-log-stats", "--disable-log-requests", "--enable-log-requests", "--max-log-len",
    "--otlp-traces-endpoint", "--collect-detailed-traces", "--kv-events-config", "--enable-mfu-metrics",
    "--kv-cache-metrics",
    # kernels whose choice leaves the memory alone (linear layers; a MoE backend other than Marlin,
    # which kvcalc reads as the release's own choice)
    "--linear-backend", "--moe-backend",
    # reading the checkpoint
    "--trust-remote-code", "--tokenizer", "--tokenizer-mode", "--tokenizer-revision", "--revision",
    "--code-revision", "--download-dir", "--hf-token", "--ignore-patterns",
    "--safetensors-load-strategy", "--model-loader-extra-config", "--config-format", "--seed",
    # scheduling that leaves the batch limits and the cache alone
    "--scheduling-policy", "--long-prefill-token-threshold", "--max-num-partial-prefills",
    "--max-long-partial-prefills", "--prefix-caching-hash-algo", "--distributed-executor-backend",
    "--worker-extension-cls", "--swap-space",
    # where the data-parallel engines run (--data-parallel-size itself is a setting)
    "--data-parallel-size-local", "-dpl", "--data-parallel-backend", "-dpb", "--data-parallel-address", "-dpa",
    "--data-parallel-rpc-port", "-dpp", "--data-parallel-start-rank", "-dpr", "--data-parallel-rank", "-dpn",
    "--data-parallel-hybrid-lb", "-dph", "--data-parallel-external-lb", "-dpe",
    "--data-parallel-multi-port-external-lb", "-dpm",
    # vLLM's custom all-reduce keeps about 24 MiB per GPU (an 8 MiB metadata + staging buffer, an 8 MiB
    # IPC buffer, 8 MiB of graph-buffer pointers: device_communicators/custom_all_reduce.py, v0.33), and
    # is off anyway where GPUs lack peer-to-peer; without it the per-peer term's NCCL part stays. Five
    # stored TP 2/4 runs with the flag (L40S, H100, RTX 5090, MI300X, RTX 3090) land at -5.1% to 0.0%
    "--disable-custom-all-reduce",
})
"""Flags that do not change what vLLM sizes on the GPU (--swap-space is host memory for the V0
engine's swapped blocks), or by far less than the spread of kvcalc's per-peer term
(--disable-custom-all-reduce)."""

NOT_MODELLED = {
    "--enable-expert-parallel": Text("flags.expert_parallel"),
    "-ep": Text("flags.expert_parallel"),
    "--enable-eplb": Text("flags.expert_parallel"),
    "--enable-lora": Text("flags.lora"),
    "--max-loras": Text("flags.lora"),
    "--max-lora-rank": Text("flags.lora"),
    "--lora-modules": Text("flags.lora"),
    "--kv-transfer-config": Text("flags.kv_connector"),
    "--kv-offloading-size": Text("flags.kv_connector"),
    "--compilation-config": Text("flags.compilation"),
    "-O": Text("flags.compilation"),
    "--enable-sleep-mode": Text("flags.sleep_mode"),
}
"""Flags that change the memory vLLM sizes but that kvcalc does not model, with the reason."""

BY_VALUE = {
    "--dtype": (("auto", "half", "float16", "bfloat16", "bf16", "fp16"), Text("flags.dtype")),
    "--load-format": (("auto", "safetensors", "pt", "npcache", "dummy", "fastsafetensors", "runai_streamer",
                       "sharded_state", "tensorizer"), Text("flags.load_format")),
    "--mm-encoder-tp-mode": (("weights",), Text("flags.encoder_tp_mode")),
}
"""Flags ignored for these values (16-bit weights; a way of reading the same checkpoint; the vision
encoder sharded as the rest) and refused for others (float32 weights; a bitsandbytes or GGUF
checkpoint; a whole encoder per GPU)."""


def sort_unknown(tokens: list[str]) -> tuple[list[str], dict[str, str], list[str]]:
    """The tokens argparse did not know, as (flags ignored, flags refused with their reason, tokens
    that are no vLLM flag kvcalc knows). A value belongs to the flag before it; ``--flag=value``
    is one token. ``--enable-chunked-prefill`` on its own (always on in the V1 engine) and the
    harmless values of ``BY_VALUE`` change nothing kvcalc sizes and are ignored."""
    ignored: list[str] = []
    refused: dict[str, str] = {}
    strange: list[str] = []
    flag = None
    for token in tokens:
        if token.startswith("-") and not token.lstrip("-").replace(".", "", 1).isdigit():
            name, _, value = token.partition("=")
            if _OPT_LEVEL.fullmatch(name):      # -O.cudagraph_mode=...: the compilation config
                name = "-O"
            flag = name
            if name in WITHOUT_MEMORY:
                ignored.append(name)
            elif name in BY_VALUE:
                if value:
                    _by_value(name, value, ignored, refused)
            elif name in NOT_MODELLED:
                refused[name] = NOT_MODELLED[name]
            else:
                strange.append(name)
        elif flag in BY_VALUE:
            _by_value(flag, token, ignored, refused)
            flag = None
    return ignored, refused, strange


def _by_value(flag: str, value: str, ignored: list[str], refused: dict[str, str]) -> None:
    harmless, reason = BY_VALUE[flag]
    if value.strip().lower() in harmless:
        ignored.append(flag)
    else:
        refused[flag] = reason
