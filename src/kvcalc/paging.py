"""vLLM's paging: layer groups, blocks, per-request blocks, concurrency and the printed pool.

Mirrors ``vllm/v1/core/kv_cache_utils.py`` (upstream 63344913): ``get_kv_cache_groups``,
``unify_kv_cache_spec_page_size``, ``_get_kv_cache_groups_uniform_page_size``,
``get_kv_cache_config_from_groups``, ``get_max_concurrency_for_kv_cache_config`` and the
fit check ``_max_memory_usage_bytes_from_groups``. All arithmetic is on integers except
the concurrency division, which is Python float division as in vLLM.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .compressed_kv import CompressedMLASpec, PackedGroup, PackedSizing, packed_groups, packed_sizing, project_packed
from .errors import UnsupportedModelError
from .messages import Text
from .specs import (FullAttentionSpec, LayerSpec, MambaSpec, MLASpec, SizingContext, mergeable,
                    uniform_base)
from .units import cdiv
from .versions import Rule, Version, applies


@dataclass(frozen=True)
class Group:
    """Layers sharing one block table. ``specs`` has one entry for a normal group, or every
    layer's own spec for a UniformType group (same kind, different page sizes)."""

    layer_names: tuple[str, ...]
    spec: LayerSpec
    uniform_type_specs: tuple[LayerSpec, ...] = ()

    @property
    def page_size_bytes(self) -> int:
        if self.uniform_type_specs:
            return sum(s.page_size_bytes for s in self.uniform_type_specs)
        return self.spec.page_size_bytes

    def blocks_per_request(self, ctx: SizingContext) -> int:
        """cdiv(max memory of one request, page) for this group's spec."""
        if self.uniform_type_specs:
            return max(s.max_blocks(ctx) for s in self.uniform_type_specs)
        return self.spec.max_blocks(ctx)


@dataclass(frozen=True)
class Grouping:
    kind: str                     # "uniform", "uniform_type", "hybrid", "packed" or "attention_free"
    groups: tuple[Group, ...]
    padding_layers: int = 0       # empty slots added so every group has group_size layers
    page_size_bytes: int = 0      # the (unified) page of one layer, hybrid and uniform kinds
    packed: PackedSizing | None = None  # DeepSeek-V4's packed groups: what a block costs (compressed_kv)
    report: Grouping | None = None      # the projection vLLM measures requests in (DeepSeek-V4 under PP)

    @property
    def group_size(self) -> int:
        return max((len(g.layer_names) for g in self.groups), default=0)

    @property
    def block_size(self) -> int:
        """``cache_config.block_size`` after resolution: the smallest group block size."""
        return min((g.spec.block_size for g in self.groups), default=16)


def _all_mergeable(specs: list[LayerSpec]) -> bool:
    return all(mergeable(specs[0], s) for s in specs[1:])


def unify_page_size(specs: dict[str, LayerSpec], version: Version | None = None) -> dict[str, LayerSpec]:
    """``unify_kv_cache_spec_page_size``: bring every page to the largest one.

    Mamba pages are padded; an attention layer whose page divides the largest gets a larger
    block (Gemma 4: 16-token global pages of 2 × 512 dims stay; sliding layers of 256 dims go
    from 16 to 32 tokens). From v0.24 a non-MLA attention page that does not divide the largest is
    padded to it (Rule.ATTENTION_PAGE_PADDING: Gemma 4 at --block-size 48, whose 16-token sliding
    pages of 128 KiB take the full layers' 192 KiB); before, and for MLA, vLLM cannot start.
    """
    pages = {s.page_size_bytes for s in specs.values()}
    if len(pages) <= 1:
        return specs
    top = max(pages)
    out: dict[str, LayerSpec] = {}
    for name, spec in specs.items():
        page = spec.page_size_bytes
        if page == top:
            out[name] = spec
        elif isinstance(spec, MambaSpec):
            out[name] = replace(spec, page_size_padded=top)
        elif top % page == 0:
            out[name] = spec.with_block_size(spec.block_size * (top // page))
        elif version is not None and applies(Rule.ATTENTION_PAGE_PADDING, version) and \
                not isinstance(spec, MLASpec):
            out[name] = replace(spec, page_size_padded=top)
        else:
            raise UnsupportedModelError(Text("model.page_sizes", page=page, top=top))
    return out


def group_layers(specs: dict[str, LayerSpec], version: Version) -> Grouping:
    """``get_kv_cache_groups`` for one model (all stages merged)."""
    if not specs:
        return Grouping("attention_free", ())
    values = list(specs.values())
    names = tuple(specs)
    if any(isinstance(s, CompressedMLASpec) for s in values):
        return _packed_grouping(packed_groups(specs, version), version)
    if _all_mergeable(values):
        return Grouping("uniform", (Group(names, values[0]),), 0, values[0].page_size_bytes)
    bases = {uniform_base(s) for s in values}
    if len(bases) == 1 and len({s.block_size for s in values}) == 1:
        return Grouping("uniform_type", (Group(names, values[0], tuple(values)),))
    unified = unify_page_size(specs, version)
    buckets: list[tuple[list[str], list[LayerSpec]]] = []
    for name, spec in unified.items():
        for bucket_names, bucket_specs in buckets:
            if mergeable(bucket_specs[0], spec):
                bucket_names.append(name)
                bucket_specs.append(spec)
                break
        else:
            buckets.append(([name], [spec]))
    sizes = [len(b[0]) for b in buckets]
    group_size = min(sizes)
    # pad to the largest count when the counts are close (#29303, then #36684); before v0.12 never
    threshold = 1.5 if applies(Rule.HYBRID_GROUP_THRESHOLD_1_5, version) else \
        1.25 if applies(Rule.HYBRID_GROUP_THRESHOLD_1_25, version) else 0.0
    if max(sizes) < group_size * threshold:
        group_size = max(sizes)
    groups: list[Group] = []
    padding = 0
    for bucket_names, bucket_specs in buckets:
        n_groups = cdiv(len(bucket_names), group_size)
        padding += n_groups * group_size - len(bucket_names)
        for i in range(n_groups):
            groups.append(Group(tuple(bucket_names[i::n_groups]), bucket_specs[0]))
    page = next(iter(unified.values())).page_size_bytes
    return Grouping("hybrid", tuple(groups), padding, page)


def _packed_grouping(groups: list[PackedGroup], version: Version) -> Grouping:
    """DeepSeek-V4's packed groups (compressed_kv) as a Grouping: a group a stage has no layer of keeps the
    whole model's specs, so its blocks a request still count, with no names."""
    return Grouping("packed", tuple(Group(g.names, g.specs[0], g.specs) for g in groups),
                    packed=packed_sizing(groups, version))


def project(grouping: Grouping, stage: dict[str, LayerSpec]) -> Grouping:
    """``_project_kv_cache_groups_to_worker``: keep the layers one PP stage owns (DeepSeek-V4's packed
    groups: the stage's own bytes per block, compressed_kv.project_packed)."""
    if grouping.packed is not None and grouping.packed.version is not None:
        return _packed_grouping(project_packed(grouping.packed.groups, set(stage)), grouping.packed.version)
    groups = []
    for g in grouping.groups:
        names = tuple(n for n in g.layer_names if n in stage)
        specs = tuple(s for n, s in zip(g.layer_names, g.uniform_type_specs) if n in stage) \
            if g.uniform_type_specs else ()
        groups.append(Group(names, g.spec, specs))
    return replace(grouping, groups=tuple(groups))


def bytes_per_block(grouping: Grouping) -> int:
    """Bytes one block costs across every layer of one GPU: the sum of per-layer pages for a
    UniformType group, else page × group_size (``get_kv_cache_config_from_groups``)."""
    if grouping.kind == "attention_free":
        return 0
    if grouping.packed is not None:
        return grouping.packed.block_bytes
    if grouping.kind == "uniform_type":
        return grouping.groups[0].page_size_bytes
    return grouping.page_size_bytes * grouping.group_size


def num_blocks(grouping: Grouping, available_bytes: int) -> int:
    """``get_num_blocks``: available // page // group_size, never negative.

    Llama-3.1-8B bf16 on one GPU, 51.39 GiB: 55,179,889,295 // 65,536 // 32 = 26,311.
    """
    if grouping.kind == "attention_free":
        return 1
    if grouping.packed is not None:
        return max(0, available_bytes // grouping.packed.block_bytes)
    if grouping.kind == "uniform_type":
        return max(0, available_bytes // grouping.groups[0].page_size_bytes)
    return max(0, available_bytes // grouping.page_size_bytes // grouping.group_size)


def blocks_per_request(grouping: Grouping, ctx: SizingContext) -> int:
    """Σ over groups of cdiv(max memory per request, page): gpt-oss-120b at 131,072 tokens with
    16,384 in flight: 8,192 (full group) + 1,033 (sliding group) = 9,225.

    DeepSeek-V4's packed groups before v0.27 measure a request in pages of the full group
    (``get_max_concurrency_for_kv_cache_config``): cdiv(Σ blocks x group page, full page)."""
    if grouping.report is not None:     # DeepSeek-V4 under PP: the first worker's groups (engine._packed_stages)
        return blocks_per_request(grouping.report, ctx)
    packed = grouping.packed
    if packed is not None and packed.concurrency_page:
        return cdiv(sum(g.blocks_per_request(ctx) * g.page_size_bytes for g in grouping.groups),
                    packed.concurrency_page)
    return sum(g.blocks_per_request(ctx) for g in grouping.groups)


def needed_bytes(grouping: Grouping, ctx: SizingContext, version: Version,
                 raw_specs: dict[str, LayerSpec]) -> int:
    """KV bytes one request of ``ctx.max_model_len`` needs on this GPU: vLLM's fit check.

    Since v0.18 (#36030): group_size × page × Σ_groups blocks (padding slots included).
    v0.14–v0.17 (#29431): group_size × page × blocks of group 0 only. Before: the sum of
    every layer's own maximum (no padding). UniformType groups: the per-layer sum always.
    DeepSeek-V4's packed groups: what the release charges a block (``PackedSizing.check_block_bytes``)
    × Σ_groups blocks.
    """
    if grouping.kind == "attention_free":
        return 0
    if grouping.packed is not None:
        return grouping.packed.check_block_bytes * sum(g.blocks_per_request(ctx) for g in grouping.groups)
    if grouping.kind == "uniform_type" or not applies(Rule.FIT_CHECK_GROUP0, version):
        return sum(s.max_memory_usage_bytes(ctx) for s in raw_specs.values())
    page, size = grouping.page_size_bytes, grouping.group_size
    if applies(Rule.FIT_CHECK_GROUP_AWARE, version):
        return size * page * blocks_per_request(grouping, ctx)
    return size * page * grouping.groups[0].blocks_per_request(ctx)


@dataclass(frozen=True)
class FitTarget:
    """One comparison of vLLM's fit check: the groups it measures, the layers whose own maxima it
    sums where it sums layers (``needed_bytes``), and the bytes they must fit in."""

    grouping: Grouping
    specs: dict[str, LayerSpec]
    check_bytes: int


def fit_targets(grouping: Grouping, stages: tuple[dict[str, LayerSpec], ...] | list[dict[str, LayerSpec]],
                version: Version, stage_bytes: list[int]) -> list[FitTarget]:
    """What ``get_kv_cache_configs`` checks (and ``--max-model-len auto`` fits) against which
    memory, for PP stages ``stages`` holding ``stage_bytes`` each.

    Each stage's own layers against its memory, less one block from v0.29 (the null block,
    Rule.FIT_CHECK_RESERVES_NULL_BLOCK); v0.14-v0.16 the whole model's groups against the
    smallest stage's memory (Rule.FIT_CHECK_PER_WORKER), so a PP start needed every layer's
    cache on one GPU. Stages without layers are not checked.
    """
    owned = [(stage, mem) for stage, mem in zip(stages, stage_bytes)
             if any(g.layer_names for g in project(grouping, stage).groups)]
    if not owned:
        return []
    if applies(Rule.FIT_CHECK_GROUP0, version) and not applies(Rule.FIT_CHECK_PER_WORKER, version):
        every = {name: spec for stage, _ in owned for name, spec in stage.items()}
        return [FitTarget(grouping, every, min(mem for _, mem in owned))]
    targets = []
    for stage, mem in owned:
        proj = project(grouping, stage)
        check = mem - bytes_per_block(proj) if applies(Rule.FIT_CHECK_RESERVES_NULL_BLOCK, version) else mem
        targets.append(FitTarget(proj, stage, check))
    return targets


def estimate_max_model_len(grouping: Grouping, ctx: SizingContext, version: Version,
                           raw_specs: dict[str, LayerSpec], available_bytes: int) -> int:
    """``_estimate_max_model_len_from_groups``: binary search over 1..max_model_len for the
    longest length whose need fits; 0 when not even one token fits."""
    def fits(length: int) -> bool:
        return needed_bytes(grouping, replace(ctx, max_model_len=length), version,
                            raw_specs) <= available_bytes

    return largest_true(1, ctx.max_model_len, fits)


def largest_true(lo: int, hi: int, predicate) -> int:
    """The largest n in [lo, hi] with predicate(n), for a predicate true up to some point and
    false after it; 0 when it is false at lo. The same binary search vLLM's estimate uses."""
    best = 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if predicate(mid):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best


@dataclass(frozen=True)
class Capacity:
    num_blocks: int
    blocks_per_request: int
    max_concurrency: float
    tokens: int                 # the "GPU KV cache size" vLLM prints
    token_formula: str


def capacity(grouping: Grouping, blocks: int, ctx: SizingContext, version: Version) -> Capacity:
    """Concurrency and the printed token count.

    ``max_concurrency = num_blocks / blocks_per_request`` (float). From v0.21 (#41069) the
    pool is ``int(max_concurrency × max_model_len)``; before, ``num_blocks // num_groups ×
    block_size`` — for hybrids that is blocks per group times the smallest block size.
    """
    if grouping.kind == "attention_free":
        return Capacity(blocks, 0, 0.0, 0, "attention-free: no KV cache")
    per_req = blocks_per_request(grouping, ctx)
    conc = blocks / per_req
    if applies(Rule.TOKENS_FROM_CONCURRENCY, version):
        tokens = int(conc * ctx.max_model_len)
        formula = "int(max_concurrency × max_model_len)"
    else:
        # "Multiplying the GPU KV cache size by the dcp_world_size" (before #41069).
        tokens = blocks // len(grouping.groups) * grouping.block_size * ctx.dcp
        formula = "num_blocks // num_groups × block_size" + (" × dcp" if ctx.dcp > 1 else "")
    return Capacity(blocks, per_req, conc, tokens, formula)


def in_flight_tokens(version: Version, mnbt: int, pp: int, async_scheduling: bool,
                     model_runner_v2: bool) -> int:
    """``VllmConfig.max_in_flight_tokens`` as sliding-window specs see it.

    Before v0.26 (#47728) it was just max_num_batched_tokens. Since then it is
    batches-in-flight × mnbt: pp + 1 with async scheduling on model runner V2, 2 with async
    on the V1 runner at pp 1, else pp.
    """
    if not applies(Rule.SW_IN_FLIGHT_TWO_BATCHES, version):
        return mnbt
    if async_scheduling and model_runner_v2:
        batches = pp + 1
    elif async_scheduling and pp == 1:
        batches = 2
    else:
        batches = pp
    return batches * mnbt


__all__ = ["Group", "Grouping", "Capacity", "group_layers", "project", "num_blocks",
           "bytes_per_block", "blocks_per_request", "needed_bytes", "FitTarget", "fit_targets",
           "estimate_max_model_len",
           "capacity", "in_flight_tokens", "unify_page_size", "largest_true", "FullAttentionSpec"]
