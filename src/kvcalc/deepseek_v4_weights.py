"""What one GPU holds of DeepSeek-V4 after vLLM loads it: the "Model loading took X GiB" figure.

DeepSeek-V4's checkpoints mix four storage types that kvcalc's generic inventory (params.py) does not
separate: fp8 linear layers with one scale per 128 x 128 block, routed experts in MXFP4 (expert_dtype
"fp4", the default) or fp8 (Flash-Base), bf16 compressors, gates, embeddings and norms, and float32
hyper-connection mixers. This module prices each tensor the way vLLM builds it, from the v0.25-v0.30
wheels (vllm/models/deepseek_v4/nvidia/model.py, attention.py, compressor.py, quant_config.py, mtp.py;
fused_moe/oracle/mxfp4.py for the expert padding; dspark.py for the DSpark drafter). Checked against four
public logs: 75.64 GiB (v0.25, TP 2, MTP on), 38.09 GiB (v0.26, TP 4), 37.96 GiB (v0.27.1, TP 4) and
156.32 GiB (v0.26, TP 1, DSpark), each 30-100 MiB above what this sums. Sizes are bytes; GiB = 2^30.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .deepseek_v4_profile import padded_heads
from .params import config_int as _n, padded_vocab
from .units import cdiv
from .versions import Rule, Version, applies

ROPE_ROWS_DEFAULT = 1 << 20


@dataclass(frozen=True)
class DeepseekV4Weights:
    """``per_stage``: bytes one GPU (TP rank 0) of each pipeline stage holds after loading, buffers
    included; ``checkpoint``: the checkpoint's bytes as stored (MTP layer included); ``params``: its
    parameters (an MXFP4 value counts as one)."""

    per_stage: tuple[int, ...]
    checkpoint: int
    params: int
    expert_dtype: str

    @property
    def per_gpu(self) -> int:
        return max(self.per_stage)


def expert_dtype(config: dict[str, Any]) -> str | None:
    """The routed experts' storage: config ``expert_dtype``, "fp4" where it is missing (quant_config.py
    DeepseekV4FP8Config.expert_dtype); None for a value vLLM refuses or a checkpoint that is not the
    fp8 one vLLM turns into deepseek_v4_fp8 (an NVFP4 expert override, a re-quantized copy)."""
    q = config.get("quantization_config")
    if not isinstance(q, dict) or q.get("quant_method") not in ("fp8", "deepseek_v4_fp8") or \
            str(q.get("moe_quant_algo") or "").upper() == "NVFP4":
        return None
    value = config.get("expert_dtype", "fp4")
    return value if value in ("fp4", "fp8") else None


class _Pricer:
    """What each kind of tensor costs: bytes on one GPU (``mode`` "gpu"), bytes as the checkpoint stores
    them ("stored"), or parameters ("count": an MXFP4 value is one, scales are none). One description of
    the layers (``_layer``) serves all three."""

    def __init__(self, capability_major: int, e8m0_scales: bool, mode: str) -> None:
        self.major, self.e8m0, self.mode = capability_major, e8m0_scales, mode

    def fp8(self, n: int, k: int) -> int:
        """An fp8 matrix of n x k with its 128 x 128 block scales: one e8m0 byte a block as stored in an
        fp4 checkpoint, float32 in an fp8-expert one; DeepGEMM on 10.x and 12.x repacks them per row,
        four e8m0 a word (fp8_utils.py, DeepGEMM ``transform_sf_into_required_layout``), Hopper keeps
        a float32 a block."""
        if self.mode == "count":
            return n * k
        blocks = cdiv(n, 128) * cdiv(k, 128)
        if self.mode == "stored":
            scales = blocks * (1 if self.e8m0 else 4)
        elif self.major == 9 or not self.e8m0:
            scales = 4 * blocks
        else:
            scales = cdiv(n, 4) * 4 * cdiv(k, 512) * 4
        return n * k + scales

    def bf16(self, n: int) -> int:
        return n if self.mode == "count" else 2 * n

    def fp32(self, n: int) -> int:
        return n if self.mode == "count" else 4 * n

    def table(self, n: int) -> int:
        """The hash layers' token-to-expert table: int64 as stored, int32 once loaded."""
        return n if self.mode == "count" else 8 * n if self.mode == "stored" else 4 * n

    def mxfp4(self, n: int) -> int:
        """MXFP4 routed experts: two values a byte and an e8m0 scale per 32 (17/32 byte a value)."""
        return n if self.mode == "count" else n * 17 // 32


def _layer(t: dict[str, Any], p: _Pricer, ratio: int, hashed: bool, tp: int, experts_local: int,
           inter: int, experts_fp4: bool) -> int:
    """One decoder layer on one GPU, priced by ``p`` (attention.py, compressor.py, model.py
    ``DeepseekV4DecoderLayer``)."""
    H, hd = _n(t, "hidden_size"), _n(t, "head_dim", 512)
    heads, groups = _n(t, "num_attention_heads"), _n(t, "o_groups", 1) or 1
    r_q, r_o = _n(t, "q_lora_rank"), _n(t, "o_lora_rank")
    E, V, k = _n(t, "n_routed_experts"), _n(t, "vocab_size"), _n(t, "num_experts_per_tok")
    hc = _n(t, "hc_mult", 1) or 1
    mix = (2 + hc) * hc
    ih, ihd = _n(t, "index_n_heads", 64), _n(t, "index_head_dim", 128)
    out = p.fp8(r_q + hd, H) + p.bf16(r_q + hd)                  # fused wq_a + wkv (replicated), q/kv norms
    out += p.fp8(heads * hd // tp, r_q)                          # wq_b
    out += groups // tp * p.fp8(r_o, heads * hd // groups)      # wo_a, o_groups / TP groups a GPU
    out += p.fp8(H, groups * r_o // tp)                         # wo_b
    out += p.fp32(cdiv(max(1, heads // tp), 64) * 64)           # attention sinks (padded heads)
    if ratio > 1:
        coff = 2 if ratio == 4 else 1
        out += p.bf16(2 * coff * hd * H) + p.fp32(ratio * coff * hd) + p.bf16(hd)   # compressor: wkv/wgate, ape, norm
    if ratio == 4:
        out += p.fp8(ih * ihd, r_q) + p.bf16(ih * H)                               # indexer wq_b, weights_proj
        out += p.bf16(4 * ihd * H) + p.fp32(8 * ihd) + p.bf16(ihd)                  # the indexer's compressor
    out += p.bf16(E * H)                                                            # router gate
    out += p.table(V * k) if hashed else p.fp32(E)                                  # hash table or score bias
    shared = _n(t, "n_shared_experts") * _n(t, "moe_intermediate_size")
    if shared:
        per = cdiv(cdiv(shared, 128), tp) * 128
        out += p.fp8(2 * per, H) + p.fp8(H, per)
    if experts_fp4:
        out += p.mxfp4(experts_local * 3 * inter * H)
    else:
        out += experts_local * (p.fp8(2 * inter, H) + p.fp8(H, inter))
    out += p.bf16(2 * H) + p.fp32(2 * (mix * hc * H + mix + 3))                    # norms, hyper-connection mixers
    return out


def _whole(config: dict[str, Any], p: _Pricer, ratios: tuple[int, ...], mtp_layers: int, fp4: bool) -> int:
    """The checkpoint priced by ``p`` (as stored, or in parameters): embedding, LM head, final norm and
    hyper-connection head, every layer and the MTP layers with their e_proj, h_proj and norms."""
    H, E, I = _n(config, "hidden_size"), _n(config, "n_routed_experts"), _n(config, "moe_intermediate_size")
    V, hc = padded_vocab(_n(config, "vocab_size")), _n(config, "hc_mult", 1) or 1
    n_hash = _n(config, "num_hash_layers")
    out = p.bf16(2 * V * H) + p.bf16(H) + p.fp32(hc * hc * H + hc + 1)
    out += sum(_layer(config, p, r, i < n_hash, 1, E, I, fp4) for i, r in enumerate(ratios))
    return out + mtp_layers * (_layer(config, p, 1, False, 1, E, I, fp4) + _mtp_extra(p, H, hc))


def _mtp_extra(p: _Pricer, H: int, hc: int) -> int:
    """An MTP layer beside its decoder layer: e_proj and h_proj (fp8, replicated), three norms, a
    hyper-connection head (mtp.py)."""
    return 2 * p.fp8(H, H) + p.bf16(3 * H) + p.fp32(hc * hc * H + hc + 1)


def deepseek_v4_weights(config: dict[str, Any], ratios: tuple[int, ...], tp: int, *, capability_major: int,
                        version: Version, mtp: bool, mnbt: int, expert_parallel: bool = False,
                        stage_sizes: tuple[int, ...] | None = None, dspark_layers: int = 0) -> DeepseekV4Weights | None:
    """The bytes GPU 0 of ``tp`` holds on each pipeline stage (``stage_sizes``: its decoder layers,
    kvspecs.pp_partition; one stage by default), or None where the checkpoint's format is not the one vLLM
    reads (``expert_dtype``). ``ratios``: each decoder layer's compress ratio (hf_config). ``mtp``: the MTP
    layer is loaded for speculative decoding (the model alone skips every ``mtp.`` weight; the drafter
    loads it on the last stage, sharing the model's embedding and LM head, in the same measured window).

    Routed experts: without expert parallelism every GPU keeps all of them with I/TP rounded up to 128,
    or 256 on 10.x before v0.27 (FlashInfer TRT-LLM; Rule.DSV4_TRTLLM_ALIGN_128); with it whole experts,
    cdiv(E, TP) on GPU 0. The embedding sits on the first stage, the LM head, final norm and
    hyper-connection head on the last. Buffers built with the model: a float32 RoPE cache of 2^20 x 64 per
    RoPE theta a stage's layers use (the window layers' and the compressed layers'), the indexer's top-k
    indices (int32, mnbt x index_topk), on the last stage the MTP hidden-state buffer (bf16, mnbt x hc x H;
    always until v0.26, with speculative decoding only from v0.27: Rule.DSV4_MTP_BUFFER_ON_DEMAND), and
    v0.27-v0.28's eager scratch pool (Rule.DSV4_EAGER_SCRATCH, Rule.DSV4_EAGER_SCRATCH_REMOVED).
    ``dspark_layers``: the DSpark drafter's layers, loaded on the (single) stage (``_dspark_bytes``)."""
    kind = expert_dtype(config)
    H, L = _n(config, "hidden_size"), len(ratios)
    if kind is None or not H or not L:
        return None
    sizes = stage_sizes or (L,)
    fp4 = kind == "fp4"
    E, I = _n(config, "n_routed_experts"), _n(config, "moe_intermediate_size")
    n_hash = _n(config, "num_hash_layers")
    align = 256 if capability_major == 10 and not applies(Rule.DSV4_TRTLLM_ALIGN_128, version) else 128
    if expert_parallel and tp > 1:
        local, inter = cdiv(E, tp), I
    else:
        local, inter = E, cdiv(cdiv(I, tp), align) * align if fp4 else I // tp
    gpu = _Pricer(capability_major, fp4, "gpu")
    V = padded_vocab(_n(config, "vocab_size"))
    hc = _n(config, "hc_mult", 1) or 1
    top = gpu.bf16(H) + gpu.fp32(hc * hc * H + hc + 1)                      # final norm, hc head
    head = gpu.bf16(cdiv(V, tp) * H)                                       # embedding or LM head
    mtp_layers = _n(config, "num_nextn_predict_layers")
    rope_cache = _rope_rows(config) * _n(config, "qk_rope_head_dim", 64) * 4
    two_thetas = config.get("compress_rope_theta") not in (None, config.get("rope_theta"))
    per_stage = []
    start = 0
    for index, size in enumerate(sizes):
        first, last = index == 0, index == len(sizes) - 1
        layers = ratios[start:start + size]
        b = sum(_layer(config, gpu, r, i < n_hash, tp, local, inter, fp4) for i, r in enumerate(layers, start))
        b += head * (first + last) + (top if last else 0)
        drafts = mtp and last and mtp_layers
        if drafts:
            b += mtp_layers * (_layer(config, gpu, 1, False, tp, local, inter, fp4) + _mtp_extra(gpu, H, hc))
        if dspark_layers and last:
            b += _dspark_bytes(config, gpu, dspark_layers, tp, local, inter, fp4, mnbt, version)
        window = any(r == 1 for r in layers) or bool(drafts) or bool(dspark_layers and last)
        compressed = any(r > 1 for r in layers)
        b += ((window + compressed) if two_thetas else 1) * rope_cache
        b += 4 * mnbt * _n(config, "index_topk")
        dspark_buffer = dspark_layers and not applies(Rule.DSPARK_SKIPS_MTP_BUFFER, version)
        if last and (mtp or dspark_buffer or not applies(Rule.DSV4_MTP_BUFFER_ON_DEMAND, version)):
            b += 2 * mnbt * hc * H
        if applies(Rule.DSV4_EAGER_SCRATCH, version) and not applies(Rule.DSV4_EAGER_SCRATCH_REMOVED, version):
            heads = padded_heads(max(1, _n(config, "num_attention_heads") // tp), capability_major == 12, version)
            ih, ihd = _n(config, "index_n_heads", 64), _n(config, "index_head_dim", 128)
            aux = max(mnbt * ih * (ihd // 2 + ihd // 32), 4 * mnbt * _n(config, "index_topk"),
                      4 * mnbt * _n(config, "head_dim", 512))
            b += 2 * mnbt * heads * _n(config, "head_dim", 512) + aux
        per_stage.append(b)
        start += size
    checkpoint = _whole(config, _Pricer(capability_major, fp4, "stored"), ratios, mtp_layers, fp4)
    params = _whole(config, _Pricer(capability_major, fp4, "count"), ratios, mtp_layers, fp4)
    return DeepseekV4Weights(tuple(per_stage), checkpoint, params, kind)


def _dspark_bytes(config: dict[str, Any], gpu: _Pricer, layers: int, tp: int, local: int, inter: int, fp4: bool,
                  mnbt: int, version: Version) -> int:
    """The DSpark drafter on one GPU (vllm/models/deepseek_v4/nvidia/dspark.py, qwen3_dspark.py): ``layers``
    decoder layers of compress ratio 1 with every routed expert (the MTP layer's shape, without its
    e_proj/h_proj), ``main_proj`` fusing the target's hidden states at ``dspark_target_layer_ids``
    (fp8, replicated: H x len(ids) H), two norms and a hyper-connection head, and the Markov head's two
    tables of vocab x ``dspark_markov_rank`` in bf16, split by TP until v0.26 and replicated from v0.27
    (Rule.DSPARK_MARKOV_REPLICATED), when the drafter also gets its own top-k buffer. Embedding and LM head
    are the target's. Flash-0731 at TP 1: 10.12 GiB ('DSpark draft model loaded: 96 params')."""
    H, hc = _n(config, "hidden_size"), _n(config, "hc_mult", 1) or 1
    n_aux = len(config.get("dspark_target_layer_ids") or ())
    V, rank = padded_vocab(_n(config, "vocab_size")), _n(config, "dspark_markov_rank")
    replicated = applies(Rule.DSPARK_MARKOV_REPLICATED, version)
    out = layers * _layer(config, gpu, 1, False, tp, local, inter, fp4)
    out += gpu.fp8(H, n_aux * H) + gpu.bf16(2 * H) + gpu.fp32(hc * hc * H + hc + 1)
    out += gpu.bf16(2 * (V if replicated else cdiv(V, tp)) * rank)
    if replicated:
        out += 4 * mnbt * _n(config, "index_topk")
    return out


def _rope_rows(config: dict[str, Any]) -> int:
    """Rows of the RoPE cache: YaRN's original length x factor (DeepseekScalingRotaryEmbedding), else
    max_position_embeddings."""
    rope = config.get("rope_scaling") if isinstance(config.get("rope_scaling"), dict) else {}
    original, factor = rope.get("original_max_position_embeddings"), rope.get("factor")
    if isinstance(original, int) and isinstance(factor, (int, float)) and factor > 0:
        return int(original * factor)
    return _n(config, "max_position_embeddings", ROPE_ROWS_DEFAULT) or ROPE_ROWS_DEFAULT


__all__ = ["DeepseekV4Weights", "deepseek_v4_weights", "expert_dtype"]
