"""DeepSeek-V4's compressed KV cache: its per-layer caches, the packed groups and the bytes of a block.

Every DeepSeek-V4 layer keeps a 128-token sliding window of raw entries; a layer with compress ratio 4
also keeps one compressed entry per 4 tokens and a sparse-attention indexer's keys, one with ratio 128
one entry per 128 tokens; both keep float32 compressor states. vLLM stores them in its own fp8_ds_mla
rows (584 bytes an entry) and plans them apart from every other model: five kinds of cache in one
packed allocation, whose bytes per block changed three times (v0.23, v0.27, v0.29).

Mirrors the v0.20-v0.33 release wheels: vllm/models/deepseek_v4/attention.py and compressor.py
(v0.22+; vllm/model_executor/layers/deepseek_v4_attention.py before), the specs of
vllm/v1/kv_cache_interface.py (SlidingWindowMLASpec, MLAAttentionSpec with a compress ratio) and the
planning of vllm/v1/core/kv_cache_utils.py (``group_and_unify_kv_cache_specs``,
``_get_kv_cache_groups_uniform_groups``, ``_approximate_gcd``, ``_bucket_layers_by_page_size``,
``_get_kv_cache_config_packed``; v0.33 kv_cache_planning.py). The code reading is written up in
docs/research/deepseek-v4.md. Sizes are bytes; blocks count tokens of the sequence.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from .specs import LayerSpec, MLASpec, SlidingWindowSpec
from .units import cdiv
from .versions import Rule, Version, applies

ENTRY_BYTES = 584
"""One fp8_ds_mla entry of DeepSeek-V4: 448 fp8 values without RoPE, 64 RoPE values in bf16, 7 UE8M0
scales and a pad byte (hard-coded in kv_cache_interface.py: ``storage_block_size * 584``)."""
PAGE_ALIGNMENT = 576
"""Every fp8_ds_mla page is rounded up to a multiple of 576 bytes (``_apply_alignment_padding``)."""
BLOCK_SIZE = 256
"""The block vLLM sets for DeepSeek-V4 ('Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA
backend'): DeepseekSparseSWABackend.get_preferred_block_size and FlashMLA's kernel block."""
SWA_BLOCK = 64
"""The sliding-window cache's own block (sparse_swa.py): 64 raw entries a page."""
STATE_BLOCKS = {4: 4, 128: 8}
"""Compressor state blocks by compress ratio (compressor.py CompressorStateCache: 4 and 8 rows, so that
a state page matches a 64-entry KV page of a 256-token block)."""
INDEXER_ENTRY_BYTES_PER_128 = 132
"""The indexer's keys: 128 fp8 values and one float32 scale per 128 (index_head_dim 128: 132 bytes)."""


def aligned(nbytes: int) -> int:
    return cdiv(nbytes, PAGE_ALIGNMENT) * PAGE_ALIGNMENT


@dataclass(frozen=True)
class CompressedMLASpec(MLASpec):
    """A cache one entry of which covers ``ratio`` tokens (the compressed KV of ratio-4 and ratio-128
    layers, and the indexer's keys): ``MLAAttentionSpec`` with ``compress_ratio``. It holds the whole
    sequence, so a request needs cdiv(max_model_len, 256) blocks; the page is explicit (aligned)."""

    ratio: int = 1
    kind = "compressed_mla"


@dataclass(frozen=True)
class SlidingWindowMLASpec(SlidingWindowSpec):
    """The 128-token window of raw entries every layer keeps (``SlidingWindowMLASpec``, 64-entry
    blocks): a request holds cdiv(window - 1 + in-flight tokens, 64) + 1 blocks, as any window."""

    kind = "sliding_window_mla"


@dataclass(frozen=True)
class CompressorStateSpec(SlidingWindowSpec):
    """A compressor's float32 state (the partial sums of the next compressed entry): a
    ``SlidingWindowMLASpec`` with a window of 2 x 4 tokens (ratio 4) or 128 tokens (ratio 128)."""

    kind = "compressor_state"


@dataclass(frozen=True)
class CompressedDims:
    """What the cache of a DeepSeek-V4 config depends on.

    ``ratios``: per decoder layer, 1 (window only), 4 or 128 (``compress_ratios``, 0 read as 1).
    ``head_dim`` (512) is the compressor state's width; ``index_head_dim`` (128) the indexer's."""

    ratios: tuple[int, ...]
    window: int
    head_dim: int
    index_head_dim: int
    o_groups: int = 1       # the grouped output projection's groups: a GPU holds o_groups / TP of them


def ratios_of(config: dict) -> tuple[int, ...]:
    """Each decoder layer's compress ratio as vLLM reads it: ``max(1, compress_ratios[i])`` for i below
    num_hidden_layers (attention.py); the entries after them (MTP and DSpark layers) are not read.
    The config is one hf_config's reader has checked (``_deepseek_v4_layers``)."""
    n = config["num_hidden_layers"]
    return tuple(max(1, r) for r in config["compress_ratios"][:n])


def layer_specs(dims: CompressedDims, draft_layers: int, fp4_indexer: bool = False) -> dict[str, LayerSpec]:
    """Every cache of one GPU, by the name vLLM's layer would carry. No count depends on TP: each is
    one latent 'head' (``max_tp_shards=1`` from v0.31, one KV head before). MTP and DSpark draft layers
    keep the window alone (their compress ratio is 1). ``fp4_indexer``: the indexer's keys are MXFP4,
    index_head_dim / 2 packed bytes and a scale per 32 (68 bytes for 128: 4,608-byte pages; the caller
    passes it where the release sizes them so, Rule.DSV4_FP4_INDEXER_PAGE)."""
    swa = SlidingWindowMLASpec(block_size=SWA_BLOCK, token_bytes=ENTRY_BYTES, num_kv_heads=1,
                               head_size=dims.head_dim, head_size_v=0,
                               page_size_padded=aligned(SWA_BLOCK * ENTRY_BYTES), window=dims.window)
    index_bytes = dims.index_head_dim // 2 + dims.index_head_dim // 32 if fp4_indexer else \
        dims.index_head_dim + dims.index_head_dim // 128 * 4
    specs: dict[str, LayerSpec] = {}
    for i, ratio in enumerate(dims.ratios):
        specs[f"layers.{i}.swa"] = swa
        if ratio == 1:
            continue
        entries = BLOCK_SIZE // ratio
        specs[f"layers.{i}.kv"] = CompressedMLASpec(
            block_size=BLOCK_SIZE, token_bytes=ENTRY_BYTES, num_kv_heads=1, head_size=dims.head_dim,
            head_size_v=0, page_size_padded=aligned(entries * ENTRY_BYTES), ratio=ratio)
        coff = 2 if ratio == 4 else 1     # a ratio-4 compressor overlaps two windows
        specs[f"layers.{i}.state"] = _state(2 * coff * dims.head_dim, ratio, coff)
        if ratio == 4:
            specs[f"layers.{i}.indexer"] = CompressedMLASpec(
                block_size=BLOCK_SIZE, token_bytes=index_bytes, num_kv_heads=1, head_size=dims.index_head_dim,
                head_size_v=0, page_size_padded=aligned(entries * index_bytes), ratio=ratio)
            specs[f"layers.{i}.indexer_state"] = _state(2 * coff * dims.index_head_dim, ratio, coff)
    for k in range(draft_layers):
        specs[f"draft.{k}.swa"] = swa
    return specs


def _state(width: int, ratio: int, coff: int) -> CompressorStateSpec:
    rows = STATE_BLOCKS[ratio]
    return CompressorStateSpec(block_size=rows, token_bytes=width * 4, num_kv_heads=1, head_size=width,
                               head_size_v=0, page_size_padded=aligned(rows * width * 4), window=coff * ratio)


def approximate_gcd(values: list[int], lower_bound: int) -> int:
    """``_approximate_gcd``: the chunk d >= lower_bound (up to the largest value) that pads the values
    least when each is rounded up to a multiple of d; ties go to the larger d."""
    best_d, best_pad = lower_bound, None
    for d in range(max(1, lower_bound), max(values) + 1):
        pad = sum((d - x % d) % d for x in values)
        if best_pad is None or pad <= best_pad:
            best_d, best_pad = d, pad
    return best_d


@dataclass(frozen=True)
class PackedGroup:
    """One block table: its layers' specs (a UniformTypeKVCacheSpecs), in vLLM's order. A pipeline stage
    that holds none of a group's layers keeps it with the whole model's specs and no names
    (``_project_kv_cache_groups_to_worker``): it adds nothing to the stage's block, but a request still
    takes its blocks."""

    names: tuple[str, ...]
    specs: tuple[LayerSpec, ...]

    @property
    def page_size_bytes(self) -> int:
        return sum(s.page_size_bytes for s in self.specs)


def _tuples(specs) -> int:
    """``get_num_layer_tuples``: how many layers share the most common page size."""
    return Counter(s.page_size_bytes for s in specs).most_common(1)[0][1]


def packed_groups(specs: dict[str, LayerSpec], version: Version) -> list[PackedGroup]:
    """The five kinds of group vLLM makes of DeepSeek-V4's caches.

    The full group holds every compressed cache (KV and indexer keys); the windowed caches are
    bucketed by (block, window): raw windows, ratio-4 states, ratio-128 states. Each bucket's 'layer
    tuples' (its most common page size's count) are aligned to t = approximate_gcd(tuple counts, lower
    bound the full group's), and a bucket of more than t tuples is dealt into cdiv(n, t) groups
    (layer i to group i mod n): Flash's 43 windows into 22 + 21. (From v0.29 ``_get_packed_kv_cache_groups``
    takes the bound from the buckets whose page sizes are balanced, the ratio-4 states; that gives the
    same t for Flash and Pro, with or without draft layers.) Before v0.27 a windowed page is padded
    to the smallest full-group page that holds it (the ratio-4 and ratio-128 states' 32,832 to 37,440);
    from v0.27 their pages need not match (Rule.DSV4_UNPADDED_STATE_PAGES)."""
    full = [(n, s) for n, s in specs.items() if isinstance(s, CompressedMLASpec)]
    buckets: dict[tuple[int, int], list[tuple[str, LayerSpec]]] = {}
    for name, spec in specs.items():
        if isinstance(spec, SlidingWindowSpec):
            buckets.setdefault((spec.block_size, spec.window), []).append((name, spec))
    counts = [_tuples(s for _, s in full), *(_tuples(s for _, s in b) for b in buckets.values())]
    t = approximate_gcd(counts, lower_bound=counts[0])
    full_pages = sorted({s.page_size_bytes for _, s in full})
    groups = [PackedGroup(tuple(n for n, _ in full), tuple(s for _, s in full))]
    pad = not applies(Rule.DSV4_UNPADDED_STATE_PAGES, version)
    for items in buckets.values():
        by_page: dict[int, list[tuple[str, LayerSpec]]] = {}
        for name, spec in items:
            page = spec.page_size_bytes
            if pad:
                page = min(p for p in full_pages if p >= page)
                spec = replace(spec, page_size_padded=page) if page != spec.page_size_bytes else spec
            by_page.setdefault(page, []).append((name, spec))
        layer_tuples = list(zip(*by_page.values()))
        n = cdiv(len(layer_tuples), t)
        for i in range(n):
            chosen = [item for tup in layer_tuples[i::n] for item in tup]
            groups.append(PackedGroup(tuple(nm for nm, _ in chosen), tuple(s for _, s in chosen)))
    return groups


@dataclass(frozen=True)
class PackedSizing:
    """What vLLM divides by, per release: ``block_bytes`` the bytes of one block across every group
    (the pool is available // block_bytes), ``check_block_bytes`` what one block costs in the
    max-model-len check, ``concurrency_page`` the page vLLM measures a request in before v0.27
    (the full group's; None from v0.27, where a request's blocks are simply summed). ``groups`` and
    ``version`` let a pipeline stage's share be planned again (``project_packed``)."""

    block_bytes: int
    check_block_bytes: int
    concurrency_page: int | None
    groups: tuple[PackedGroup, ...] = ()
    version: Version | None = None


def packed_sizing(groups: list[PackedGroup], version: Version) -> PackedSizing:
    """Bytes per block by release (docs/research/deepseek-v4.md §2-3), for the whole model or one
    pipeline stage's projection (groups without names are another stage's: they add no bytes):

    - v0.20-v0.22 ``_get_kv_cache_config_deepseek_v4``: the most layer tuples of any group (its most
      common page size's count: 22 for Flash, whose windows split 22 + 21) x the sum of the full group's
      distinct pages (22 x (37,440 + 8,640 + 1,728) = 1,051,776);
    - v0.23-v0.26 (Rule.DSV4_BLOCK_SLOTS) ``_bucket_layers_by_page_size``: each page size times the most
      layers of that size in one group (37,440 x 22 + 8,640 x 21 + 1,728 x 20 = 1,039,680);
    - from v0.27 (Rule.DSV4_UNPADDED_STATE_PAGES) the largest group's page (1,002,240: the full group).
    The max-model-len check costs every block the most tuples of any group (a stage's empty groups with
    the whole model's) x the full pages until v0.28 and the pool's own bytes per block from v0.29
    (Rule.DSV4_CHECK_PER_BLOCK), against the memory less one block (the null block, paging.fit_targets)."""
    present = [g for g in groups if g.names]
    full_pages = sorted({s.page_size_bytes for s in groups[0].specs})
    legacy_block = max(_tuples(g.specs) for g in present) * sum(full_pages)
    legacy_check = max(_tuples(g.specs) for g in groups) * sum(full_pages)
    if applies(Rule.DSV4_UNPADDED_STATE_PAGES, version):
        block = max(g.page_size_bytes for g in present)
    elif applies(Rule.DSV4_BLOCK_SLOTS, version):
        slots: dict[int, int] = {}
        for g in present:
            for page, count in Counter(s.page_size_bytes for s in g.specs).items():
                slots[page] = max(slots.get(page, 0), count)
        block = sum(page * count for page, count in slots.items())
    else:
        block = legacy_block
    check = block if applies(Rule.DSV4_CHECK_PER_BLOCK, version) else legacy_check
    conc_page = None if applies(Rule.DSV4_UNPADDED_STATE_PAGES, version) else groups[0].page_size_bytes
    return PackedSizing(block, check, conc_page, tuple(groups), version)


def project_packed(groups: tuple[PackedGroup, ...], owned: set[str]) -> list[PackedGroup]:
    """One pipeline stage's view of the whole model's groups (``_project_kv_cache_groups_to_worker``):
    each group keeps the stage's layers, in order; a group the stage has no layer of keeps the whole
    model's specs and no names."""
    out = []
    for g in groups:
        kept = [(n, s) for n, s in zip(g.names, g.specs) if n in owned]
        out.append(PackedGroup(tuple(n for n, _ in kept), tuple(s for _, s in kept)) if kept
                   else PackedGroup((), g.specs))
    return out


__all__ = ["ratios_of", "CompressedDims", "CompressedMLASpec", "SlidingWindowMLASpec", "CompressorStateSpec",
           "PackedGroup", "PackedSizing", "layer_specs", "packed_groups", "packed_sizing", "project_packed",
           "approximate_gcd", "BLOCK_SIZE", "ENTRY_BYTES"]
