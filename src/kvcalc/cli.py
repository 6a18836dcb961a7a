"""``kvcalc`` command line: the same numbers as the page, in a terminal or as JSON.

    kvcalc estimate --model Qwen/Qwen3-8B --gpu h100 --max-model-len 32768
    kvcalc serve Qwen/Qwen3-8B --max-model-len 32k -tp 2     (a vllm serve line, "vllm" replaced)
    kvcalc validate data/vllm_logs.json [--json]
    kvcalc gpus | models | rules
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from . import __version__, api, textdepth
from .commandline import SWITCH_OFF_FORMS, serve_value_words
from .catalog import GPU_CLASS_LABELS, find_model, gpu_class, load_gpus, load_models
from .errors import KvcalcError
from .local_checkpoint import is_checkpoint_dir, read_checkpoint_dir
from .messages import Text
from .settings import (COMPILE_CACHE_STATES, CUDAGRAPH_MODES, FORCED_BACKENDS, MAMBA_SSM_CACHE_DTYPES,
                       PERFORMANCE_MODES, ROCM_QUICK_REDUCE_LEVELS,
                       Settings, spec_family)
from .validate import load_logs, validate_logs
from .weights import VLLM_QUANTIZATION_FORMATS
from .versions import rules_table
from .vllm_flags import (DOTTED_JSON, NOT_MODELLED, SPEC_SHORTHAND, as_vllm_parses, config_flag, dotted_json,
                         dotted_value, free_words, moe_backend_marlin, nest_dotted, read_config, sort_unknown)


def _flag_bool(text: str) -> bool:
    t = text.lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected on or off (or true / false), got {text!r}")


def _vllm_quantization(text: str) -> str:
    """vLLM's --quantization value -> the weight format kvcalc prices (weights.VLLM_QUANTIZATION_FORMATS)."""
    fmt = VLLM_QUANTIZATION_FORMATS.get(text.lower())
    if fmt is None:
        raise argparse.ArgumentTypeError(
            f"kvcalc does not size vLLM's --quantization {text!r}; it takes "
            + ", ".join(sorted(VLLM_QUANTIZATION_FORMATS))
            + " (a checkpoint whose config.json declares its quantization needs the flag not at all)")
    return fmt


def _estimate_parser(sub: Any) -> None:
    p = sub.add_parser("estimate", help="the KV cache pool, concurrency, log lines and serve command")
    _model_flags(p)
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p = sub.add_parser("serve", help="estimate, spelled as vllm serve: kvcalc serve MODEL [vLLM flags] "
                                     "(add --gpu; flags that leave GPU memory alone are ignored)")
    _model_flags(p)
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    plan = sub.add_parser("plan", help="N requests of L tokens: max context on these settings, "
                                       "and the smallest setup of each catalog GPU")
    _model_flags(plan)
    plan.add_argument("--requests", type=int, required=True, help="concurrent requests to serve")
    plan.add_argument("--tokens", type=int, required=True, help="tokens per request (prompt + output)")
    plan.add_argument("--json", action="store_true")
    lev = sub.add_parser("levers", help="each change worth trying, with its effect on concurrency")
    _model_flags(lev)
    lev.add_argument("--target-tokens", type=int, help="also: the utilization that reaches this pool")
    lev.add_argument("--json", action="store_true")


def _model_flags(p: Any) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="Hugging Face id (catalog, or fetched from huggingface.co) or a checkpoint folder")
    src.add_argument("--config", type=Path, help="path to a config.json")
    p.add_argument("--model-id", help="name to print in the serve command when using --config")
    p.add_argument("--weights-bytes", type=int, help="checkpoint size in bytes (safetensors total)")
    p.add_argument("--gpu", default="h100", help="catalog key, CUDA device name or alias (default h100)")
    p.add_argument("--gpu-memory-gib", type=float, help="CUDA total memory of the GPU, overriding the catalog")
    # vLLM's own spellings too (-tp, -pp, -dcp), so a pasted `vllm serve` line works as typed
    p.add_argument("--tp", "-tp", "--tensor-parallel-size", dest="tensor_parallel_size", type=int, default=1)
    p.add_argument("--pp", "-pp", "--pipeline-parallel-size", dest="pipeline_parallel_size", type=int, default=1)
    p.add_argument("-dp", "--data-parallel-size", dest="data_parallel_size", type=int, default=1,
                   help="engines side by side, each on its own TP x PP GPUs (dense models; the figures are one "
                        "engine's)")
    p.add_argument("-ep", "--enable-expert-parallel", dest="enable_expert_parallel", action="store_true", default=None,
                   help="vLLM's flag: a MoE model's experts placed whole across the tensor-parallel GPUs")
    p.add_argument("--disable-custom-all-reduce", dest="disable_custom_all_reduce", action="store_true", default=None,
                   help="vLLM's flag: NCCL runs every tensor-parallel all-reduce, inside the CUDA graphs too, "
                        "which makes each graph cost more")
    p.add_argument("--kv-connector", dest="kv_connector", metavar="NAME",
                   help="the KV connector of --kv-transfer-config: NixlConnector (prefill/decode transfer) is sized")
    p.add_argument("--kv-transfer-config", dest="kv_transfer_config", metavar="JSON",
                   help="vLLM's flag: its kv_connector is read (NixlConnector is sized, others are refused)")
    p.add_argument("--dcp", "-dcp", "--decode-context-parallel-size", dest="decode_context_parallel_size",
                   type=int, default=1)
    p.add_argument("--gpu-memory-utilization", "--device-memory-utilization", dest="gpu_memory_utilization",
                   type=float)
    p.add_argument("--kv-cache-dtype", default="auto")
    # the sizes as typed: the core reads vLLM's forms (32k, 32K, 8G; auto for the length) and names a bad one
    p.add_argument("--max-model-len", metavar="N|auto",
                   help="tokens per request (32768, 32k, 32K); auto: the longest the KV cache holds (vLLM 0.14+)")
    p.add_argument("--avg-tokens", type=int, help="average tokens per request (prompt + output)")
    p.add_argument("--max-num-batched-tokens", metavar="N", help="tokens per step (8192, 8k, 8K)")
    p.add_argument("--max-num-seqs", type=int)
    p.add_argument("--block-size", type=int)
    p.add_argument("--enforce-eager", action="store_true")
    p.add_argument("--entrypoint", choices=("serve", "llm"), default="serve",
                   help="`vllm serve` or the LLM class (different batch defaults)")
    p.add_argument("--vllm-version", help="release to reproduce (default: newest known); an NVIDIA NGC container's "
                   "build as its log prints it, e.g. 0.11.1+9114fd76.nv25.12 or 0.11.1+nv25.12")
    p.add_argument("--weights", default="auto", help="weight precision: auto, bf16, fp8, awq, gptq …")
    p.add_argument("--quantization", "-q", dest="weights", type=_vllm_quantization, metavar="METHOD",
                   help="vLLM's flag, as an alternative to --weights (awq, awq_marlin, gptq, fp8, mxfp4, "
                        "modelopt_fp4 …)")
    p.add_argument("--speculative-config", "-sc", help='JSON, e.g. \'{"method":"mtp","num_speculative_tokens":1}\'')
    p.add_argument("--spec-method", help="vLLM's shorthand for --speculative-config's method (v0.22+)")
    p.add_argument("--spec-model", help="vLLM's shorthand for --speculative-config's model")
    p.add_argument("--spec-tokens", type=int, help="vLLM's shorthand for --speculative-config's num_speculative_tokens")
    p.add_argument("--moe-backend", metavar="NAME",
                   help="vLLM's MoE kernel (v0.24+): marlin puts MXFP4 experts on Marlin (as --mxfp4-marlin on); "
                        "the others keep the release's choice")
    # vLLM's form is a bare switch and its --no- twin; "on"/"off" after it is accepted as well
    p.add_argument("--enable-prefix-caching", type=_flag_bool, nargs="?", const=True, metavar="on|off",
                   help="vLLM's switch (--no-enable-prefix-caching turns it off; default: the release's own)")
    p.add_argument("--no-enable-prefix-caching", dest="enable_prefix_caching", action="store_false",
                   default=None, help=argparse.SUPPRESS)
    p.add_argument("--enable-chunked-prefill", type=_flag_bool, nargs="?", const=True, metavar="on|off",
                   help="vLLM's switch (--no-enable-chunked-prefill turns it off, v0.11.1+: whole prompts per step, so "
                        "--max-num-batched-tokens defaults to at least --max-model-len; default: on)")
    p.add_argument("--no-enable-chunked-prefill", dest="enable_chunked_prefill", action="store_false",
                   default=None, help=argparse.SUPPRESS)
    p.add_argument("--enable-extensible-kv-cache", type=_flag_bool, nargs="?", const=True, metavar="on|off",
                   help="vLLM's switch, v0.34+ (--no-enable-extensible-kv-cache turns it off: the pool comes from the "
                        "profile's estimate as before v0.34; default: on, unless a flag or WSL2 turns it off)")
    p.add_argument("--no-enable-extensible-kv-cache", dest="enable_extensible_kv_cache", action="store_false",
                   default=None, help=argparse.SUPPRESS)
    p.add_argument("--async-scheduling", type=_flag_bool, nargs="?", const=True, metavar="on|off",
                   help="vLLM's switch (--no-async-scheduling turns it off; default: the release's own)")
    p.add_argument("--no-async-scheduling", dest="async_scheduling", action="store_false",
                   default=None, help=argparse.SUPPRESS)
    p.add_argument("--disable-hybrid-kv-cache-manager", action="store_true", default=None)
    p.add_argument("--mamba-ssm-cache-dtype", choices=MAMBA_SSM_CACHE_DTYPES,
                   help="vLLM's flag: the dtype of a hybrid model's Mamba state (default: the model's)")
    p.add_argument("--kv-cache-memory-bytes", metavar="BYTES",
                   help="the KV cache memory per GPU, instead of --gpu-memory-utilization (8589934592, 8G, 8.6g)")
    p.add_argument("--cpu-offload-gb", type=float, metavar="GIB",
                   help="vLLM's flag: GiB of each GPU's layer weights kept in pinned host memory (read over "
                        "PCIe), which leaves that much more for the KV cache")
    p.add_argument("--num-gpu-blocks-override", type=int, metavar="N",
                   help="vLLM's flag: the pool gets N blocks whatever the memory (from v0.21 one request is also "
                        "checked against N blocks' bytes, not the profiled memory)")
    p.add_argument("--skip-mm-profiling", action="store_true", default=None,
                   help="vLLM's flag: no profile pass of a multimodal model's vision tower")
    p.add_argument("--max-cudagraph-capture-size", type=int,
                   help="vLLM's flag: the largest CUDA-graph capture size (sets the graph count)")
    p.add_argument("--cudagraph-capture-sizes", "--cuda-graph-sizes", dest="cudagraph_capture_sizes", type=int,
                   nargs="+", metavar="N",
                   help="vLLM's flag: the CUDA-graph capture sizes, e.g. 1 2 4 8 16")
    p.add_argument("--disable-sliding-window", action="store_true", default=None,
                   help="every layer full attention, the context capped at the model's sliding window (vLLM's flag)")
    p.add_argument("--language-model-only", action="store_true", default=None,
                   help="vLLM's flag (v0.16+): serve a multimodal model as text only; its vision/audio "
                        "towers are neither loaded nor profiled")
    p.add_argument("--mm-processor-kwargs", metavar="JSON",
                   help='the processor\'s options, e.g. \'{"max_pixels": 1003520}\' (max_pixels sizes the '
                        'Qwen-VL warm-up\'s largest image, max_soft_tokens Gemma 4\'s)')
    p.add_argument("--limit-mm-per-prompt", metavar="LIMITS",
                   help='items per prompt by modality, as JSON (\'{"image": 2, "video": 0}\') or image=2,video=0; '
                        'a modality at 0 is not warmed up')
    p.add_argument("--flashinfer-sampler", type=_flag_bool, metavar="on|off",
                   help="VLLM_USE_FLASHINFER_SAMPLER=1/0: which sampler the startup profile runs "
                        "(default: the release's own default)")
    p.add_argument("--allow-long-max-model-len", action="store_const", const=True,
                   help="VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: vLLM takes a --max-model-len past the model's own "
                        "(with a warning) instead of refusing it")
    p.add_argument("--cudagraph-memory-profiling", type=_flag_bool, metavar="on|off",
                   help="VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1/0: whether vLLM subtracts its CUDA-graph "
                        "estimate before sizing the KV cache (default: the release's own default, on from v0.20)")
    p.add_argument("--model-runner-v2", type=_flag_bool, metavar="on|off",
                   help="VLLM_USE_V2_MODEL_RUNNER=1/0: run on model runner V2 or keep V1 (default: the "
                        "release's own choice for the model; V2 deducts no CUDA-graph estimate before v0.29)")
    p.add_argument("--rocm-quick-reduce", type=str.upper, choices=ROCM_QUICK_REDUCE_LEVELS, metavar="LEVEL",
                   help="VLLM_ROCM_QUICK_REDUCE_QUANTIZATION (" + ", ".join(ROCM_QUICK_REDUCE_LEVELS) +
                        "): ROCm's quick all-reduce keeps a 4 GiB buffer on each GPU of a TP 2/4/8 group "
                        "on MI300-series and MI355X (default NONE: off)")
    p.add_argument("--compile-cache", choices=COMPILE_CACHE_STATES,
                   help="cold: a first start (the torch.compile cache ~/.cache/vllm is empty, as in a "
                        "fresh container); warm: a restart that loads the compiled graphs, whose pool is "
                        "larger by the 'first-start compile' term (v0.27+; v0.19+ for untied embeddings). Default: a first start")
    p.add_argument("--peer-to-peer", type=_flag_bool, metavar="on|off",
                   help="whether the tensor-parallel GPUs reach each other directly (nvidia-smi topo -p2p r; "
                        "vLLM prints 'Custom allreduce is disabled because your platform lacks GPU P2P capability' "
                        "when they do not): NCCL's buffers per peer, and NCCL inside the CUDA graphs without it. "
                        "Default: as usual for the card: GeForce off; NVLink boards on; other PCIe cards as the "
                        "host decides (per-peer buffers as the catalog has the card, NCCL's graph share in the "
                        "band's top only)")
    p.add_argument("--pinned-memory", type=_flag_bool, metavar="on|off",
                   help="off under WSL2 (vLLM prints 'Using pin_memory=False as WSL is detected') unless "
                        "VLLM_WSL2_ENABLE_PIN_MEMORY=1 (v0.24+): from v0.30 model runner V2 then keeps every "
                        "request's token ids in GPU memory, max_num_seqs x max_model_len x 4 B; before v0.30 V2 "
                        "cannot start without it, so kvcalc sizes the V1 runner. Default: on (Linux)")
    p.add_argument("--fp4-indexer-cache", type=_flag_bool, metavar="on|off",
                   help="DeepSeek-V4's indexer keys in MXFP4 (vLLM's --attention-config use_fp4_indexer_cache, "
                        "or indexer_kv_dtype mxfp4 from v0.28; compute capability 10.x)")
    p.add_argument("--mxfp4-marlin", type=_flag_bool, metavar="on|off",
                   help="on: MXFP4 experts (gpt-oss) run on Marlin kernels, as VLLM_MXFP4_USE_MARLIN=1 (--moe-backend "
                        "marlin from v0.24) or a v0.10-v0.11 install without triton_kernels makes them; Marlin pads "
                        "each GPU's expert intermediate size to 128 (64 natively), so the weights grow. off: a "
                        "native kernel (what a log naming Triton or FlashInfer shows). Default: the release's "
                        "choice (Marlin below compute capability 9.0, and from 11.0 on from v0.12)")
    p.add_argument("--performance-mode", choices=PERFORMANCE_MODES,
                   help="vLLM's flag (v0.17+): throughput doubles the default --max-num-batched-tokens and "
                        "--max-num-seqs (a larger warm-up, more CUDA graphs); interactivity captures a CUDA "
                        "graph for every batch size from 1 to 32 (a larger CUDA-graph estimate). Default: balanced")
    p.add_argument("--cudagraph-mode", type=str.upper, choices=CUDAGRAPH_MODES,
                   help="the compilation config's cudagraph_mode (v0.10.1+; vLLM: --compilation-config "
                        "'{\"cudagraph_mode\": \"NONE\"}', -cc.cudagraph_mode=NONE (v0.12+) or -O.cudagraph_mode=NONE (before), all read here too): which CUDA "
                        "graphs vLLM captures, and so counts in its CUDA-graph estimate. Default: the release's "
                        "(FULL_AND_PIECEWISE)")
    p.add_argument("--hf-overrides", metavar="JSON",
                   help="vLLM's config.json overrides, merged as vLLM merges them (a nested config key by key), "
                        "e.g. '{\"max_position_embeddings\": 131072}'; overrides that change tensor shapes count the "
                        "weights from the config instead of the checkpoint's size")
    p.add_argument("--optimization-level", type=int, choices=(0, 1, 2, 3),
                   help="vLLM's -O level (v0.12+; -O0 / -O1 are read here too): 0 compiles and captures nothing, "
                        "as --enforce-eager; 1 captures piecewise CUDA graphs only, without the all-reduce + "
                        "RMSNorm fusion; 2 (the default) and 3 add the full graphs")
    p.add_argument("--attention-backend", type=str.upper, choices=(*FORCED_BACKENDS, "AUTO"),
                   help="vLLM's --attention-backend (v0.13+; VLLM_ATTENTION_BACKEND before v0.15, and "
                        "--attention-config.backend, both read here too): FlashInfer adds its 394 MiB workspace to "
                        "vLLM's CUDA-graph estimate, FlexAttention captures no full graphs before v0.20. Plain "
                        "attention models on NVIDIA GPUs only. Default: the release's own choice")
    p.add_argument("--available-kv-gib", type=float,
                   help="'Available KV cache memory' from your log: compute the pool from it")
    p.add_argument("--measured-reserve-gib", type=float,
                   help="what your log shows vLLM subtracted besides the weights (what-ifs from it)")
    _switch_off_forms(p)


def _switch_off_forms(p: argparse.ArgumentParser) -> None:
    """vLLM's off forms of the switches kvcalc reads (commandline.SWITCH_OFF_FORMS: --no-enforce-eager, v0.34's
    --disable-prefix-caching …) as hidden options of the setting's own, so a serve line that spells one reads
    as the pasted command does; those the parser has already (--no-enable-prefix-caching) stay as they are."""
    for flag, name in SWITCH_OFF_FORMS.items():
        if flag not in p._option_string_actions:        # argparse keeps no public index of its options
            p.add_argument(flag, dest=name, action="store_const", const=False, default=argparse.SUPPRESS,
                           help=argparse.SUPPRESS)


SETTING_ARGS = tuple(name for name in Settings.__dataclass_fields__ if name != "speculative")
"""Every setting is an option of its own (the speculative config is read apart: JSON, and a drafter
to fetch)."""


def _fetch_drafter(spec: Any) -> None:
    """Fetch the config.json of the drafter a speculative config names (``model``) into its
    ``draft_config``, so the core sizes the drafter's layers and weights instead of assuming one
    layer like the model's. A drafter that cannot be fetched keeps that assumption, said on stderr."""
    if not isinstance(spec, dict) or spec.get("draft_config") is not None or \
            spec_family(str(spec.get("method", ""))) != "eagle" or not isinstance(spec.get("model"), str):
        return
    try:
        spec["draft_config"], _ = _model_files(spec["model"][:1000])
    except KvcalcError as exc:
        print(f"kvcalc: the drafter's config.json was not read ({exc}); one draft layer shaped "
              "like the model's is assumed", file=sys.stderr)


def _read_outside_catalog(model: str) -> bool:
    """Whether ``model`` is read from its folder or Hugging Face rather than looked up in the catalog:
    a folder here (vLLM looks for one first too), or a name the catalog does not hold."""
    return is_checkpoint_dir(model) or find_model(model) is None


def _model_files(model: str) -> tuple[dict[str, Any], int | None]:
    """A model's config.json and checkpoint bytes (or None), from the folder ``model`` names where
    there is one (vLLM looks for a local folder first too), else fetched from Hugging Face."""
    if is_checkpoint_dir(model):
        return read_checkpoint_dir(model)
    from .hub import fetch_model  # noqa: PLC0415 - network only when needed
    return fetch_model(model)


def _log_model(given: str | None, logged: str | None) -> dict[str, Any]:
    """The model a log is compared with, where it is not in the catalog: ``--model`` or the name the
    log prints, read from its folder or fetched from Hugging Face ({"model", "config",
    "weights_bytes"}; {} for a catalog model, which the core looks up itself). A name from the log
    that cannot be read (a folder on the machine that ran vLLM) asks for --model."""
    name = given or logged
    if not name or not _read_outside_catalog(name):
        return {}
    try:
        config, weights = _model_files(name)
    except KvcalcError as exc:
        if given:
            raise
        raise _Reported(f"the log names the model {name!r}, which is not in the catalog and could not be "
                        f"read here ({exc}); pass --model with a catalog id, a Hugging Face id or a checkpoint "
                        "folder") from exc
    return {"model": name, "config": config, "weights_bytes": weights}


def _local_model_name(path: Path, config: Any) -> str:
    """What ``vllm serve`` is pointed at for a --config without --model-id: the folder of a model's
    config.json (vLLM serves a local checkpoint by its folder), else the path or id the checkpoint
    was saved from (``_name_or_path``), else the file's name; the page, which cannot see the folder,
    takes the last two."""
    if path.name == "config.json":
        return str(path.parent)
    saved = config.get("_name_or_path") if isinstance(config, dict) else None
    return saved.strip()[:200] if isinstance(saved, str) and saved.strip() else path.stem


def build_request(args: argparse.Namespace) -> dict[str, Any]:
    settings = {k: getattr(args, k) for k in SETTING_ARGS if getattr(args, k) is not None}
    spec: Any = None
    if args.speculative_config:
        try:
            spec = textdepth.loads(args.speculative_config)
        except ValueError as exc:
            raise KvcalcError(f"--speculative-config is not valid JSON: {exc}") from exc
    shorthand = {key: getattr(args, flag[2:].replace("-", "_")) for flag, key in SPEC_SHORTHAND.items()
                 if getattr(args, flag[2:].replace("-", "_")) is not None}
    configs = dict(getattr(args, "config_settings", {}))
    shorthand = {**configs.pop(SPEC_KEYS, {}), **shorthand}    # --speculative-config.KEY / -sc.KEY too
    if shorthand:    # vLLM refuses a key given both ways; kvcalc lets the shorthand win
        spec = {**(spec if isinstance(spec, dict) else {}), **shorthand}
    if spec is not None:
        settings["speculative"] = spec
        _fetch_drafter(spec)
    if args.kv_transfer_config is not None and "kv_connector" not in settings:
        try:
            transfer = textdepth.loads(args.kv_transfer_config)
        except ValueError as exc:
            raise KvcalcError(f"--kv-transfer-config is not valid JSON: {exc}") from exc
        settings["kv_connector"] = transfer.get("kv_connector") if isinstance(transfer, dict) else transfer
    if args.moe_backend and moe_backend_marlin(args.moe_backend) and "mxfp4_marlin" not in settings:
        settings["mxfp4_marlin"] = True
    for key, value in configs.items():
        if key in DOTTED_JSON.values():    # given key by key, it replaces the JSON form, as vLLM's parser does
            settings[key] = value
        else:
            settings.setdefault(key, value)     # kvcalc's own options, where given, win
    req: dict[str, Any] = {"op": args.command, "gpu": args.gpu, "settings": settings,
                           "available_kv_gib": args.available_kv_gib,
                           "measured_reserve_gib": args.measured_reserve_gib,
                           "weights_bytes": args.weights_bytes, "gpu_total_gib": args.gpu_memory_gib}
    for extra in ("requests", "tokens", "target_tokens"):
        if getattr(args, extra, None) is not None:
            req[extra] = getattr(args, extra)
    if args.config is not None:
        try:
            req["config"] = textdepth.loads(args.config.read_text(encoding="utf-8"))
        except OSError as exc:
            raise KvcalcError(f"cannot read --config {args.config}: {exc.strerror}") from exc
        except ValueError as exc:
            # vLLM's own --config is a YAML file of serve flags; kvcalc's is a model's config.json
            yaml = args.config.suffix.lower() in (".yaml", ".yml")
            raise KvcalcError(f"--config {args.config} is not valid JSON: {exc}" + (
                "; kvcalc's --config is a model's config.json, not vLLM's YAML file of serve flags: give those "
                "flags on the command line, and the model with --model" if yaml else "")) from exc
        req["model"] = args.model_id or _local_model_name(args.config, req["config"])
    else:
        req["model"] = args.model
        if _read_outside_catalog(args.model):
            req["config"], fetched = _model_files(args.model)
            if req["weights_bytes"] is None:
                req["weights_bytes"] = fetched
    return req


def _fmt_int(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


def print_estimate(r: dict[str, Any], out=None) -> None:
    s, lay = r["settings"], r["layout"]
    w = (out or sys.stdout).write
    w(f"{r['model']['id'] or r['model']['architecture']} on {s['tensor_parallel_size']} × "
      f"{r['gpu']['name']} ({r['gpu']['total_gib']:.2f} GiB), vLLM {s['vllm_version']}\n")
    length = f"auto (from {s['max_model_len']:,})" if s["max_model_len_auto"] else f"{s['max_model_len']:,}"
    w(f"  max_model_len {length} · util {s['gpu_memory_utilization']} · KV "
      f"{s['kv_cache_dtype_resolved']} · block {s['block_size']} · batched tokens "
      f"{s['max_num_batched_tokens']:,} · max seqs {s['max_num_seqs']:,} · model runner "
      f"{'V2' if lay['model_runner_v2'] else 'V1'}\n")
    groups = ", ".join(f"{g['layers']}×{g['kind']}" for g in lay["groups"])
    w(f"  KV per token per GPU: {lay['kv_bytes_per_token']:,} B · layout {lay['grouping']} "
      f"({len(lay['groups'])} group(s): {groups}; padding {lay['padding_layers']})\n")
    b = r["budget"]
    if b:
        w("\nMemory per GPU (estimated)\n")
        w(f"  {'total × util':<26}{b['requested_gib']:8.2f} GiB\n")
        for t in b["terms"]:
            w(f"  − {t['name']:<24}{t['gib']:8.2f} GiB  ({t['low_gib']:.2f}–{t['high_gib']:.2f})\n")
            if t.get("basis"):
                w(f"      {t['basis']}\n")
        w(f"  {'= KV cache':<26}{b['available_gib']:8.2f} GiB  "
          f"({b['available_low_gib']:.2f}–{b['available_high_gib']:.2f})\n")
        if r.get("budget_note"):
            w(f"\nWill not start: {r['budget_note']}\n")
    elif r.get("budget_note"):
        w(f"\nNo memory estimate: {r['budget_note']}\n")
    for label, p in (("Fully estimated", r["estimated"]), ("From your log's memory", r["from_log"])):
        if not p:
            continue
        w(f"\n{label}\n")
        if p["fits"]:
            extra = ""
            if label.startswith("Fully") and r.get("estimated_band"):
                band = r["estimated_band"]
                extra = f"  (band {_fmt_int(band['tokens_low'])}–{_fmt_int(band['tokens_high'])})"
            if "tokens_low" in p:
                extra = f"  (log rounding allows {_fmt_int(p['tokens_low'])}–{_fmt_int(p['tokens_high'])})"
            w(f"  GPU KV cache size      {p['tokens']:,} tokens{extra}\n")
            w(f"  Max concurrency        {p['max_concurrency']:.2f}x at {p['max_model_len']:,} tokens\n")
            if p["avg_requests"] is not None:
                w(f"  Requests at {s['avg_tokens']:,} tokens  {p['avg_requests']:.1f}\n")
        w("  vLLM prints:\n")
        for line in p["log_lines"]:
            w(f"    {line}\n")
    w(f"\nCommand\n  {r['serve_command']}\n")
    for n in r["notes"]:
        w(f"note: {n}\n")


def print_compare(r: dict[str, Any], out=None) -> None:
    w = (out or sys.stdout).write
    w(f"{r['model']} on {r['gpu']}; settings read from the log: {r['form']}\n\n")
    w(f"{'line':<44}{'your log':>18}{'from its memory':>18}{'estimated':>18}{'diff':>11}\n")
    for row in r["rows"]:
        diff = f"{row['difference_pct']:+.1f}%" if row["difference_pct"] is not None else \
            f"{row['difference_gib']:+.2f} GiB" if row.get("difference_gib") is not None else ""
        w(f"{row['line']:<44}{row['logged']:>18}{row['from_log'] or '—':>18}{row['estimated'] or '—':>18}{diff:>11}\n")
    for cause in r["causes"]:
        w(f"  likely cause: {cause}\n")
    if r["measured_reserve_gib"] is not None:
        w(f"\nyour log's vLLM subtracted {r['measured_reserve_gib']:.2f} GiB besides the weights; "
          f"pass --measured-reserve-gib {r['measured_reserve_gib']:.2f} to `kvcalc estimate`/`levers` for what-ifs\n")


def print_plan(r: dict[str, Any], out=None) -> None:
    w = (out or sys.stdout).write
    w(f"{r['requests']} concurrent requests of {r['tokens']:,} tokens\n")
    mc = r["max_context_for_requests"]
    w(f"  on these settings: {r['requests']} requests fit at once up to --max-model-len {mc:,}\n"
      if mc else f"  on these settings: {r['requests']} requests do not fit at any length\n")
    w("\nSmallest setup per GPU (fully estimated; fewest GPUs first)\n")
    if not r["setups"]:
        w("  none in the catalog, up to 8 GPUs\n")
    for s in r["setups"]:
        w(f"  {s['count']} × {s['gpu_name']:<40} pool {s['pool_tokens']:>11,} tokens, "
          f"{s['concurrency']:7.2f}x ({s['headroom']:.2f} × your target)\n")


def print_levers(r: dict[str, Any], out=None) -> None:
    w = (out or sys.stdout).write
    cur = r["current"]
    w(f"now: {cur['concurrency']:.2f}x at --max-model-len {cur['max_model_len']:,} "
      f"(pool {cur['pool_tokens']:,} tokens)\n\n")
    for lv in r["levers"]:
        gain = f"×{lv['gain']:.2f}" if lv["gain"] else ""
        w(f"  {lv['concurrency']:8.2f}x {gain:>7}  {lv['name']:<38} {lv['flag']}\n")
    u = r.get("utilization_for_target")
    if u:
        util = u["gpu_memory_utilization"]
        w(f"\npool of {u['target_tokens']:,} tokens: "
          + (f"--gpu-memory-utilization {util}" if util else "not reachable by utilization alone")
          + (f", or --kv-cache-memory-bytes {u['kv_cache_memory_bytes']}" if u.get("kv_cache_memory_bytes") else "")
          + "\n")


def print_validation(result: dict[str, Any], out=None) -> None:
    w = (out or sys.stdout).write
    w(f"{'log':<34}{'logged':>11}{'from log':>11}{'interval':>23}{'ok':>4}{'estimated':>11}{'err%':>8}\n")
    for row in result["rows"]:
        if row["skipped"]:
            w(f"{row['id']:<34}{_fmt_int(row['logged_tokens']):>11}  skipped: {row['skipped']}\n")
            continue
        fl, est, mem = row["from_log"], row["estimated"], row.get("estimated_memory")
        interval = f"{_fmt_int(fl['tokens_low'])}–{_fmt_int(fl['tokens_high'])}" if fl else "—"
        ok = ("yes" if fl["inside"] else "NO") if fl else "—"
        err = f"{est['error_pct']:+.1f}" if est else (f"{mem['error_pct']:+.1f}m" if mem else "—")
        estimated = _fmt_int(est and est['tokens']) if not mem else f"{mem['kv_gib']:.2f} GiB"
        w(f"{row['id']:<34}{_fmt_int(row['logged_tokens']):>11}{_fmt_int(fl and fl['tokens']):>11}"
          f"{interval:>23}{ok:>4}{estimated:>11}{err:>8}\n")
    s = result["summary"]
    w("(m: a log without a pool line; the error is that of the KV cache memory)\n")
    w(f"\nfrom log: {s['from_log_inside']}/{s['from_log_checked']} inside the rounding interval "
      f"(max |error| {s['from_log_max_abs_error_pct']}%); skipped {s['skipped']} of {s['entries']}\n")
    for label, part in (("fully estimated, all rows", s), ("  rows used to fit", s["fitted_rows"]),
                        ("  rows held out", s["held_out_rows"])):
        if part["estimated_checked"]:
            w(f"{label}: median |error| {part['estimated_median_abs_error_pct']}%, max "
              f"{part['estimated_max_abs_error_pct']}%, estimated high on {part['estimated_share_high']:.0%} "
              f"of {part['estimated_checked']} rows; {part['estimated_within_5pct']} within 5%\n")
    if s["estimated_kv_checked"]:
        w(f"  the same misses in KV cache memory: median |error| {s['estimated_kv_median_abs_error_gib']} GiB, "
          f"max {s['estimated_kv_max_abs_error_gib']} GiB\n")
    if s["estimated_checked"]:
        w(f"the logged pool lies inside the estimate's band on {s['estimated_inside_band']} of "
          f"{s['estimated_checked']} rows\n")
    if s["weights_checked"]:
        w(f"weights vs 'Model loading took': median |error| {s['weights_median_abs_error_pct']}%, "
          f"max {s['weights_max_abs_error_pct']}% over {s['weights_checked']} rows\n")
    for term, label in (("activation", "activation peak (+ the CUDA-graph estimate where the log counts it there)"),
                        ("non_torch", "non-torch memory"),
                        ("cuda_graphs", "CUDA-graph estimate")):
        if s[f"{term}_checked"]:
            w(f"{label} vs the logged breakdown: median |error| {s[f'{term}_median_abs_error_gib']} GiB, "
              f"max {s[f'{term}_max_abs_error_gib']} GiB, estimated high on {s[f'{term}_share_high']:.0%} "
              f"of {s[f'{term}_checked']} rows\n")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`kvcalc gpus | head`): stop quietly, as Unix tools do.
        import os  # noqa: PLC0415
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _serve_as_estimate(argv: list[str], serve: argparse.ArgumentParser) -> list[str] | str:
    """``kvcalc serve MODEL …``, a vllm serve line with "vllm" replaced: the model vLLM takes as its
    positional argument becomes --model (first, for ``_yaml_config``), and the command is estimate. As in
    vLLM the model may follow flags (``kvcalc serve --trust-remote-code MODEL``): each flag takes the
    words its kvcalc option takes, or a vLLM flag kvcalc has no option for those vLLM's parser gives it
    (commandline.serve_value_words), and the first word no flag takes is the model. A line that names
    the model that way and with --model too is refused (the reason, as a str): no release serves it
    as written with the word (up to v0.11.0 vLLM refuses --model, from v0.11.1 it moves --model's
    value to the front and stops at the word: Rule.SERVE_MODEL_FLAG_MOVED), so kvcalc does not guess."""
    if len(argv) < 2 or argv[0] != "serve":
        return argv
    free = free_words(argv[1:], lambda flag, following: _option_words(serve, flag, following))
    if not free:
        return argv
    i = free[0] + 1
    rest = [*argv[1:i], *argv[i + 1:]]
    given = [w.partition("=")[2] if w.startswith("--model=") else (rest[j + 1] if j + 1 < len(rest) else "MODEL")
             for j, w in enumerate(rest) if w == "--model" or w.startswith("--model=")]
    if given:
        return (f"the line names the model twice: {Text('command.model_twice', word=argv[i], model=given[0])} "
                f"(up to v0.11.0 it refuses the --model flag)")
    return ["serve", "--model", argv[i], *rest]


def _option_words(parser: argparse.ArgumentParser, flag: str, following: str | None) -> int | None:
    """The words ``flag`` takes in a ``kvcalc serve`` line: its kvcalc option's (none for a switch; an
    optional on/off only when one follows; every word for a list), else vLLM's (serve_value_words)."""
    action = parser._option_string_actions.get(flag)    # argparse keeps no public index of its options
    if action is None:
        return serve_value_words(flag)
    if action.nargs == "?":      # on|off after a switch, else nothing
        return 1 if following is not None and _accepts(action, following) else 0
    if action.nargs in ("+", "*"):
        return None
    return 1 if action.nargs is None else action.nargs


def _accepts(action: argparse.Action, word: str) -> bool:
    """Whether ``word`` is a value the option takes (its choices, or what its type reads)."""
    if action.choices is not None:
        return word in action.choices
    try:
        (action.type or str)(word)      # type: ignore[operator]
    except (argparse.ArgumentTypeError, TypeError, ValueError):
        return False
    return True


def _yaml_config(argv: list[str]) -> str | None:
    """The refusal of vLLM's own --config (a YAML file of flags) in ``kvcalc serve MODEL …`` (read by
    ``_serve_as_estimate``), where the model is named, so --config cannot be kvcalc's path to a
    config.json; None elsewhere."""
    named = len(argv) >= 3 and argv[0] == "serve" and argv[1] == "--model"
    if named and any(a == "--config" or a.startswith("--config=") for a in argv[3:]):
        return f"--config: {NOT_MODELLED['--config']}"
    return None


SPEC_DOTTED = ("--speculative-config.", "-sc.")
SPEC_KEYS = "speculative_keys"
"""The speculative config's keys given one by one (--speculative-config.method ngram, -sc.method=ngram),
kept by ``_take_configs`` under this name until build_request merges them."""


def _take_configs(argv: list[str]) -> tuple[list[str], dict[str, Any], str | None]:
    """vLLM's compilation and attention configs in a serve line (--compilation-config / -O /
    --attention-config as JSON, dotted --compilation-config.KEY / -cc.KEY / -O.KEY / --attention-config.KEY
    with = or the next token): the arguments without them, the settings they give
    (vllm_flags.read_config) and, where some of one cannot be read, the refusal's line. The
    speculative config and the JSON flags given key by key (--speculative-config.KEY / -sc.KEY,
    vllm_flags.DOTTED_JSON: --hf-overrides.KEY, --limit-mm-per-prompt.KEY …) come back too, for
    build_request. An optimization level comes in as --optimization-level (vllm_flags.as_vllm_parses)."""
    kept: list[str] = []
    dotted: dict[str, dict[str, Any]] = {}     # config -> the keys given one by one
    settings: dict[str, Any] = {}
    refusal = None
    i = 0
    while i < len(argv):
        token = argv[i]
        flag, eq, inline = token.partition("=")
        by_key = dotted_json(flag)
        if by_key is not None:     # --hf-overrides.KEY …: replaces the JSON form, as in vLLM
            value, i = (inline, i + 1) if eq else (argv[i + 1] if i + 1 < len(argv) else None, i + 2)
            nest_dotted(settings.setdefault(by_key[0], {}), by_key[1], dotted_value(value))
            continue
        config = ("speculative", flag.split(".", 1)[1].replace("-", "_")) \
            if flag.startswith(SPEC_DOTTED) else config_flag(flag)
        if config is None:
            kept.append(token)
            i += 1
            continue
        which, key = config
        if eq:
            value, i = inline, i + 1
        elif i + 1 < len(argv):
            value, i = argv[i + 1], i + 2
        else:
            value, i = None, i + 1
        if which == "speculative":     # merged into the speculative config by build_request
            settings.setdefault(SPEC_KEYS, {})[key] = dotted_value(value)
            continue
        if key:
            dotted.setdefault(which, {})[key] = dotted_value(value)
            continue
        read, why = read_config(which, value)
        settings.update(read)
        if why is not None:
            refusal = f"{flag}: {why}"
    for which, keys in dotted.items():
        read, why = read_config(which, keys)
        settings.update(read)
        if why is not None:
            refusal = f"--{which}-config: {why}"
    return kept, settings, refusal


def _estimate_from_command(text: str, args: argparse.Namespace) -> int | None:
    """What the page's paste box does with a text that holds no log but a ``vllm serve`` command or
    an ``LLM(...)`` call (api op read_command): the estimate for the settings it gives, on --gpu
    (h100 unless given), with the flags left out said on stderr. None when there is no command."""
    reply = api.handle({"op": "read_command", "text": text})
    if not reply["ok"]:
        if "log" in reply["error"]["fields"]:
            return None
        raise _Reported(reply["error"]["message"])
    res = reply["result"]
    said = [("ignored, as they leave GPU memory alone or move it by less than the band", ", ".join(res["ignored"])),
            ("not modelled, so the numbers leave them out",
             "; ".join(f"{flag} ({why})" for flag, why in res["refused"].items())),
            ("not known to kvcalc", ", ".join(res["unknown"]))]
    for what, flags in said:
        if flags:
            sys.stderr.write(f"kvcalc: note: {what}: {flags}\n")
    if res["model_ignored"]:
        sys.stderr.write(f"kvcalc: warning: {res['model_ignored']['why']}\n")
    for why in res["fails"]:
        sys.stderr.write(f"kvcalc: warning: vLLM would not start with this line: {why}\n")
    if res["unexpanded"]:
        sys.stderr.write(f"kvcalc: warning: shell variables the text does not assign, left out: "
                         f"{', '.join(res['unexpanded'])}\n")
    model = args.model or res["model"]
    if not model:
        raise _Reported("the pasted command names no model kvcalc can read: give --model")
    if not args.gpu:
        sys.stderr.write("kvcalc: note: GPU h100 assumed (give --gpu)\n")
    req = {"op": "estimate", "model": model, "gpu": args.gpu or "h100",
           "settings": {**res["settings"], "entrypoint": res["kind"]}}
    return _answer(req, args.json, print_estimate)


def _unknown_flags(command: str, rest: list[str]) -> str | None:
    """What to do with the flags kvcalc has no option for, so a pasted ``vllm serve`` line works:
    ignore those that leave GPU memory alone (said on stderr), refuse those that change it in a way
    kvcalc does not model (the reason, flags that share one named together), and refuse the rest
    as unknown. The refusal's one line, or None."""
    if command not in ("estimate", "serve", "plan", "levers"):
        return f"unrecognized arguments: {' '.join(rest)}"
    ignored, refused, strange = sort_unknown(rest)
    stray = [t for t in strange if not t.startswith("-")]
    if stray:
        return (f"unexpected value: {' '.join(stray)} (no flag before it takes a value; note that a shortened "
                f"flag is read as the one option it starts, as vLLM reads it: --lang is --language-model-only)")
    if strange:
        return (f"unrecognized arguments: {' '.join(strange)} (no vLLM flag kvcalc knows; flags that leave GPU "
                f"memory alone, such as --port or --served-model-name, are accepted and ignored)")
    if refused:
        by_reason: dict[str, list[str]] = {}
        for flag, why in refused.items():
            by_reason.setdefault(why, []).append(flag)
        return "; ".join(f"{', '.join(flags)}: {why}" for why, flags in by_reason.items())
    if ignored:
        sys.stderr.write(f"kvcalc: note: ignored, as they leave GPU memory alone or move it by less than the band: {', '.join(dict.fromkeys(ignored))}\n")
    return None


def _main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kvcalc", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"kvcalc {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _estimate_parser(sub)
    v = sub.add_parser("validate", help="check kvcalc against stored vLLM startup logs")
    v.add_argument("path", nargs="?", type=Path, help="logs file (default: the packaged data/vllm_logs.json)")
    v.add_argument("--json", action="store_true")
    pl = sub.add_parser("parse-log", help="read a vLLM startup log and print what it says (a vllm serve "
                        "command or an LLM(...) call instead: its estimate, as the page's paste box does)")
    pl.add_argument("file", help="log file, or - for standard input")
    pl.add_argument("--json", action="store_true")
    pl.add_argument("--compare", action="store_true",
                    help="also set the log's numbers beside kvcalc's prediction")
    pl.add_argument("--model", help="the model (catalog id, Hugging Face id or checkpoint folder), when the log "
                    "does not name one kvcalc can read")
    pl.add_argument("--gpu", help="GPU, when the log's total memory does not identify it")
    sub.add_parser("gpus", help="list the GPU catalog")
    sub.add_parser("models", help="list the model catalog")
    sub.add_parser("rules", help="the vLLM rules that changed between releases")
    given = as_vllm_parses(list(sys.argv[1:] if argv is None else argv))
    served = _serve_as_estimate(given, sub.choices["serve"])
    if isinstance(served, str):
        sys.stderr.write(f"kvcalc serve: error: {served}\n")
        return 2
    given = served
    if given[:1] == ["serve"] and not {"--model", "--config", "-h", "--help"} & {w.partition("=")[0] for w in given}:
        sys.stderr.write("kvcalc serve: error: the line names no model: kvcalc serve MODEL [vLLM flags] (words "
                         "after a flag that takes several, such as --served-model-name a b, are that flag's)\n")
        return 2
    yaml_refusal = _yaml_config(given)
    if yaml_refusal:     # before argparse, which would read it as kvcalc's --config beside --model
        sys.stderr.write(f"kvcalc: error: {yaml_refusal}\n")
        return 2
    words, from_configs, refusal = _take_configs(given)
    args, rest = parser.parse_known_args(words)
    args.config_settings = from_configs
    refusal = refusal or (_unknown_flags(args.command, rest) if rest else None)
    if refusal:
        sys.stderr.write(f"kvcalc: error: {refusal}\n")
        return 2
    try:
        if args.command == "serve":
            args.command = "estimate"
        if args.command in ("estimate", "plan", "levers"):
            printer = {"estimate": print_estimate, "plan": print_plan, "levers": print_levers}[args.command]
            return _answer(build_request(args), args.json, printer)
        if args.command == "validate":
            try:
                logs = load_logs(args.path)
            except (OSError, ValueError, KeyError) as exc:
                raise _Reported(f"cannot read logs file {args.path}: {exc}") from exc
            result = validate_logs(logs)
            if args.json:
                print(json.dumps(result, indent=2, ensure_ascii=False))
            else:
                print_validation(result)
            bad = [r for r in result["rows"] if r["from_log"] and not r["from_log"]["inside"]]
            return 1 if bad else 0
        if args.command == "parse-log":
            from .logparse import parse_log  # noqa: PLC0415
            try:
                text = sys.stdin.read() if args.file == "-" else \
                    Path(args.file).read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise _Reported(f"cannot read {args.file}: {exc.strerror}") from exc
            parsed = parse_log(text)
            if not parsed.found_anything:
                answered = _estimate_from_command(text, args)
                if answered is not None:
                    return answered
            if args.compare:
                req: dict[str, Any] = {"op": "compare_log", "text": text, "model": args.model, "gpu": args.gpu,
                                       **_log_model(args.model, parsed.model)}
                spec = parsed.settings().get("speculative")
                if isinstance(spec, dict):          # a drafter the log names: its config sizes it
                    spec = dict(spec)
                    _fetch_drafter(spec)
                    if spec.get("draft_config") is not None:
                        req["drafter"] = {"id": spec["model"], "config": spec["draft_config"]}
                return _answer(req, args.json, print_compare)
            if not parsed.found_anything:
                raise _Reported("nothing in this text looks like a vLLM startup log (no 'Available KV "
                                "cache memory', 'GPU KV cache size' or similar line), a vllm serve command "
                                "or an LLM(...) call")
            data = parsed.to_dict()
            if args.json:
                print(json.dumps(data, indent=2, ensure_ascii=False))
            else:
                for key, value in data.items():
                    if value not in (None, [], {}, False) and key not in ("lines_total",):
                        print(f"{key:<26}{value}")
            return 0
        if args.command == "gpus":
            shown = None
            for g in load_gpus():
                kind = gpu_class(g)
                if kind != shown:      # the page's groups, as headings
                    print(("\n" if shown else "") + GPU_CLASS_LABELS[kind] + ":")
                    shown = kind
                p2p = "" if g.peer_to_peer else "  (no direct peer-to-peer: NCCL via host memory)"
                p2p += "  (NVSwitch: FlashInfer's MNNVL all-reduce)" if g.nvswitch else ""
                print(f"{g.key:<18}{g.total_gib:8.2f} GiB  {g.name}{p2p}")
            return 0
        if args.command == "models":
            for m in load_models():
                print(m.id)
            return 0
        if args.command == "rules":
            for r in rules_table():
                print(f"v{r['since']:<8}{r['pr']:<14}{r['what']}  [{r['basis']}]")
            return 0
    except (KvcalcError, _Reported) as exc:
        print(f"kvcalc: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _answer(request: dict[str, Any], as_json: bool, printer) -> int:
    """Run one API request and print its result as JSON or as the command's table."""
    resp = api.handle(request)
    if not resp["ok"]:
        raise _Reported(resp["error"]["message"])
    if as_json:
        print(json.dumps(resp["result"], indent=2, ensure_ascii=False))
    else:
        printer(resp["result"])
    return 0


class _Reported(Exception):
    """An error already phrased for the user."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
