"""The startup lines and errors vLLM prints about the KV cache, formatted per release.

Sources: ``vllm/v1/worker/gpu_worker.py`` (available memory), ``vllm/v1/core/kv_cache_utils.py``
(capacity lines, ``_check_enough_kv_cache_memory``), at the upstream commits named in
``versions.py``; older texts from the same files' history (#11960, #28051, #42479).
"""

from __future__ import annotations

from dataclasses import dataclass

from .units import GIB, format_gib
from .versions import Rule, Version, applies

DOCS_URL = "https://docs.vllm.ai/en/latest/configuration/conserving_memory/"

AUTO_FIT_SHORT_MAX_MODEL_LEN = 8192
"""Below this many tokens a length --max-model-len auto reduced is a warning (v0.34
kv_cache_planning.py ``AUTO_FIT_SHORT_MAX_MODEL_LEN``)."""


@dataclass(frozen=True)
class Sizing:
    """What v0.34's messages say to do about a short pool (``_more_kv_cache_memory_hint``): whether the
    extensible KV cache sizes it, the utilization in force, and whether the check runs after warm-up."""

    extensible: bool = False
    utilization: float = 0.92
    after_warmup: bool = False


def room_hint(sizing: Sizing) -> str:
    """``_more_kv_cache_memory_hint`` (v0.34 kv_cache_planning.py)."""
    if not sizing.extensible:
        return ("Try increasing `gpu_memory_utilization` when initializing the engine (this flag also controls "
                "CPU memory reservation on the CPU backend, despite its name).")
    used_by = "the model, its activations, CUDA graphs and warmup" if sizing.after_warmup else \
        "the model and its activations"
    graphs = (" CUDA graphs take less with fewer or smaller capture sizes in the compilation config."
              if sizing.after_warmup else "")
    if sizing.utilization < 1.0:
        return (f"The KV cache gets what is left after {used_by} within `gpu_memory_utilization`="
                f"{sizing.utilization}; increase it (with the extensible KV cache it defaults to 1.0) or decrease "
                f"`max_model_len` or `max_num_seqs`.{graphs}")
    return (f"The extensible KV cache already takes all device memory left after {used_by}; decrease "
            f"`max_model_len` or `max_num_seqs`, or the model needs a device with more memory.{graphs}")


def _gib(num_bytes: int, version: Version) -> str:
    """GiB as the release prints it: format_gib ('50.6') from v0.14, '%.2f' ('50.60') before."""
    if applies(Rule.FORMAT_GIB_LOGS, version):
        return format_gib(num_bytes)
    return f"{num_bytes / GIB:.2f}"


def available_line(available_bytes: int, version: Version) -> str:
    return f"Available KV cache memory: {_gib(available_bytes, version)} GiB"


def capacity_lines(tokens: int, max_model_len: int, concurrency: float, version: Version) -> list[str]:
    """'GPU KV cache size: 420,944 tokens' and 'Maximum concurrency for 131,072 tokens per
    request: 3.21x' — one merged line from v0.28 (#50462), two lines before."""
    size = f"GPU KV cache size: {tokens:,} tokens"
    conc = f"Maximum concurrency for {max_model_len:,} tokens per request: {concurrency:.2f}x"
    if applies(Rule.MERGED_CAPACITY_LOG_LINE, version):
        return [f"{size}, {conc}"]
    return [size, conc]


def no_memory_error(version: Version, sizing: Sizing | None = None) -> str:
    if applies(Rule.AUTO_FIT_REDUCED_LINE, version):
        return (f"ValueError: No available memory for the cache blocks. {room_hint(sizing or Sizing())} "
                f"See {DOCS_URL} for more details.")
    if applies(Rule.NEW_FIT_ERROR_TEXT, version):
        return ("ValueError: No available memory for the cache blocks. Try increasing "
                "`gpu_memory_utilization` when initializing the engine (this flag also controls "
                "CPU memory reservation on the CPU backend, despite its name). "
                f"See {DOCS_URL} for more details.")
    if applies(Rule.FORMAT_GIB_LOGS, version):
        return ("ValueError: No available memory for the cache blocks. Try increasing "
                "`gpu_memory_utilization` when initializing the engine. "
                f"See {DOCS_URL} for more details.")
    return ("ValueError: No available memory for the cache blocks. Try increasing "
            "`gpu_memory_utilization` when initializing the engine.")


def does_not_fit_error(max_model_len: int, needed: int, available: int, estimated_max_len: int,
                       version: Version, sizing: Sizing | None = None) -> str:
    """vLLM's 'To serve at least one request …' error with its estimated maximum length: from v0.14 in
    format_gib and with the docs link, the possessive fixed and the CPU backend named from v0.22
    (Rule.NEW_FIT_ERROR_TEXT), and from v0.34 with what makes room in the setting (``room_hint``)."""
    if applies(Rule.FORMAT_GIB_LOGS, version):
        est = (f"Based on the available memory, the estimated maximum model length is "
               f"{estimated_max_len}. " if estimated_max_len > 0 else "")
        whose = "model's" if applies(Rule.NEW_FIT_ERROR_TEXT, version) else "models's"
        if applies(Rule.AUTO_FIT_REDUCED_LINE, version):
            advice = f"{room_hint(sizing or Sizing())} Decreasing `max_model_len` also reduces what is needed."
        elif applies(Rule.NEW_FIT_ERROR_TEXT, version):
            advice = ("Try increasing `gpu_memory_utilization` (which also controls CPU memory on the CPU backend) "
                      "or decreasing `max_model_len` when initializing the engine.")
        else:
            advice = "Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
        return (f"ValueError: To serve at least one request with the {whose} max seq len ({max_model_len}), "
                f"({format_gib(needed)} GiB KV cache is needed, which is larger than the available KV cache memory "
                f"({format_gib(available)} GiB). {est}{advice} See {DOCS_URL} for more details.")
    est = (f"Based on the available memory, the estimated maximum model length is "
           f"{estimated_max_len}." if estimated_max_len > 0 else "")
    return (f"ValueError: To serve at least one request with the models's max seq len "
            f"({max_model_len}), ({needed / GIB:.2f} GiB KV cache is needed, which is larger than "
            f"the available KV cache memory ({available / GIB:.2f} GiB). {est} Try increasing "
            f"`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")


def auto_fit_line(original_len: int, fitted_len: int, memory_bytes: int, version: Version,
                  sizing: Sizing | None = None, tentative: bool = False) -> str:
    """The line ``--max-model-len auto`` prints once the pool is known (``_auto_fit_max_model_len``):
    the model's own length kept, or the length it was cut to and the memory that set it. From v0.34 the
    extensible KV cache fits twice: a ``tentative`` length from the reserved capacity, then the final
    one after warm-up (``sizing.after_warmup``) from the blocks committed."""
    kv = f"{format_gib(memory_bytes)} GiB GPU"
    if applies(Rule.AUTO_FIT_REDUCED_LINE, version):
        sizing = sizing or Sizing()
        later = "; the final length is set after CUDA graph capture and warmup" if tentative else ""
        if fitted_len >= original_len:
            if sizing.after_warmup:
                return (f"Auto-fit max_model_len: using max_model_len={original_len}, which fits in the KV cache "
                        f"memory left after CUDA graph capture and warmup ({kv}).")
            return f"Auto-fit max_model_len: full model context length {original_len} fits in available KV cache " \
                   f"memory ({kv}){later}"
        if tentative:
            return f"Auto-fit max_model_len: reduced from {original_len} to {fitted_len} to fit in available KV " \
                   f"cache memory ({kv}){later}"
        left = f"{kv} left for the KV cache after CUDA graph capture and warmup" if sizing.after_warmup else \
            f"{kv} available for the KV cache"
        line = f"--max-model-len auto reduced max_model_len from {original_len} to {fitted_len} ({left})."
        if fitted_len >= AUTO_FIT_SHORT_MAX_MODEL_LEN:
            return line
        hint = "Increase `gpu_memory_utilization` or set --max-model-len explicitly." \
            if sizing.utilization < 1.0 else "Use more GPUs or set --max-model-len explicitly."
        return f"{line} Requests longer than {fitted_len} tokens will be rejected. {hint}"
    if applies(Rule.AUTO_FIT_LINE_KV_MEMORY, version):
        where = f"available KV cache memory ({kv})"
        if fitted_len >= original_len:
            return f"Auto-fit max_model_len: full model context length {original_len} fits in {where}"
        return f"Auto-fit max_model_len: reduced from {original_len} to {fitted_len} to fit in {where}"
    if fitted_len >= original_len:
        return f"Auto-fit max_model_len: full model context length {original_len} fits in available GPU memory"
    return (f"Auto-fit max_model_len: reduced from {original_len} to {fitted_len} to fit in available GPU "
            f"memory ({format_gib(memory_bytes)} GiB available for KV cache)")


def auto_fit_attention_free_line(original_len: int) -> str:
    return f"Auto-fit max_model_len: attention-free model, using derived max_model_len={original_len}"


AUTO_FIT_ERROR = ("ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even "
                  "a single token. Try increasing `gpu_memory_utilization`.")


def auto_fit_error(version: Version, sizing: Sizing | None = None) -> str:
    """``--max-model-len auto`` when not one token fits: from v0.34 with what to do about it."""
    if not applies(Rule.AUTO_FIT_REDUCED_LINE, version):
        return AUTO_FIT_ERROR
    sizing = sizing or Sizing()
    hint = ("CUDA graph capture and warmup left no memory for the KV cache. Increase `gpu_memory_utilization`, "
            "reduce the memory CUDA graphs take (fewer or smaller capture sizes in the compilation config), or "
            "use more GPUs.") if sizing.after_warmup else room_hint(sizing)
    return f"ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single " \
           f"token. {hint}"


def utilization_cap_line(utilization: float, requested_bytes: int, withheld_bytes: int) -> str | None:
    """The extensible KV cache's warning for an explicit utilization between 0.7 and 1.0 that keeps 1 GiB
    or more of free memory out of the cache (v0.34 extensible_kv_cache.py ``measure_kv_cache_blocks``);
    None where it stays silent."""
    if not 0.7 < utilization < 1.0 or withheld_bytes < GIB:
        return None
    return (f"gpu_memory_utilization={utilization} caps this instance at {format_gib(requested_bytes)} GiB, keeping "
            f"{format_gib(withheld_bytes)} GiB of free device memory out of the KV cache. The extensible KV cache is "
            "sized from the memory measured after warmup and CUDA graph capture, so vLLM's own use needs no headroom "
            "below 1.0. Leave gpu_memory_utilization unset unless it leaves room for memory vLLM does not measure: "
            "other processes sharing the GPU (including ones that allocate on it later), the CPU on a unified-memory "
            "device, weight transfer buffers for weight updates, or a KV connector's own device buffers.")


def extended_line(blocks: int, committed_bytes: int) -> str:
    """The worker's line once the extensible KV cache holds its final blocks (``extend_kv_cache``)."""
    return f"Extended KV cache to {blocks} blocks ({committed_bytes / GIB:.2f} GiB)."


def blocks_override_line(natural_blocks: int, override: int) -> str:
    """``may_override_num_blocks`` / ``get_kv_cache_configs``: the blocks the memory would have made,
    replaced by --num-gpu-blocks-override."""
    return f"Overriding num_gpu_blocks={natural_blocks} with num_gpu_blocks_override={override}"
