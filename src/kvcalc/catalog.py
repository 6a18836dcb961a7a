"""The GPU and model catalogs (``data/gpus.json``, ``data/models.json``) and their lookups.

Pure: functions take the parsed JSON; ``load_*`` read the files shipped with the package
(``kvcalc/data`` is the repository's ``data/`` folder), so the CLI, the tests and the page's
worker see the same catalog.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import CatalogError
from .kvspecs import GpuTarget
from .messages import Text

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Gpu:
    key: str
    name: str
    total_bytes: int
    cuda_names: tuple[str, ...]
    aliases: tuple[str, ...]
    arch: str
    compute_capability: str
    platform: str
    vendor: str
    unified_memory: bool
    source: tuple[str, ...]
    peer_to_peer: bool = True   # NCCL's per-peer buffers in GPU memory (reserve.non_torch_estimate)
    nvswitch: bool = False      # NVSwitch multicast between the GPUs (FlashInfer's MNNVL all-reduce)
    nvlink_all_pairs: bool = False  # every pair of a board's GPUs NVLink-connected: custom all-reduce above TP 2
    driver_blocks_peer_to_peer: bool = False    # GeForce: no peer-to-peer whatever the host (peer_to_peer_basis)
    total_estimated: bool = False   # the total is derived from sister cards, not measured on this one (its basis says how)

    @property
    def total_gib(self) -> float:
        """The CUDA total in GiB (2^30 bytes), as vLLM's log lines print it."""
        return self.total_bytes / (1 << 30)

    @property
    def target(self) -> GpuTarget:
        return GpuTarget(self.arch, self.compute_capability, self.platform)

    @property
    def device_name(self) -> str:
        """The name torch prints (used by vLLM's batch defaults: 'a100' in the name)."""
        return self.cuda_names[0] if self.cuda_names else self.name


@dataclass(frozen=True)
class Model:
    id: str
    name: str
    family: str
    config: dict[str, Any]
    weights_bytes: int | None
    source: tuple[str, ...]


def _norm(text: str) -> str:
    return re.sub(r"[\s_]+", " ", str(text).strip().lower())


def parse_gpus(data: Any) -> tuple[Gpu, ...]:
    try:
        return tuple(
            Gpu(g["key"], g["name"], int(g["total_bytes"]), tuple(g.get("cuda_names") or ()),
                tuple(g.get("aliases") or ()), g.get("arch", ""), str(g.get("compute_capability", "")),
                g.get("platform", "cuda"), g.get("vendor", ""), bool(g.get("unified_memory")),
                tuple(g.get("source") or ()), bool(g.get("peer_to_peer", True)), bool(g.get("nvswitch", False)),
                bool(g.get("nvlink_all_pairs", False)), bool(g.get("driver_blocks_peer_to_peer", False)),
                str(g.get("total_bytes_basis", "")).lower().startswith("estimated"))
            for g in data["gpus"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CatalogError(Text("catalog.gpus_malformed", error=repr(exc))) from exc


def _with_quant_file(m: dict[str, Any]) -> dict[str, Any]:
    """The entry's config with the ModelOpt ``hf_quant_config.json`` it records beside it, where the
    config itself declares no quantization (config_aliases.quantization_config reads it there)."""
    config = m["config"]
    extra = m.get("hf_quant_config")
    return {**config, "hf_quant_config": extra} if isinstance(extra, dict) and isinstance(config, dict) else config


def parse_models(data: Any) -> tuple[Model, ...]:
    try:
        return tuple(
            Model(m["id"], m.get("name") or m["id"], m.get("family", ""), _with_quant_file(m),
                  m.get("weights_bytes"), tuple(m.get("source") or ()))
            for m in data["models"])
    except (KeyError, TypeError) as exc:
        raise CatalogError(Text("catalog.models_malformed", error=repr(exc))) from exc


GPU_CLASS_LABELS = {
    "datacenter": Text("catalog.class_datacenter"), "unified": Text("catalog.class_unified"),
    "workstation": Text("catalog.class_workstation"), "geforce": Text("catalog.class_geforce"),
    "laptop": Text("catalog.class_laptop"), "amd": Text("catalog.class_amd"),
}
"""The groups the page (and ``kvcalc gpus``) lists the catalog's GPUs under, in this order, with their
headings."""
GPU_CLASSES = tuple(GPU_CLASS_LABELS)


def gpu_class(g: Gpu) -> str:
    """Which of ``GPU_CLASSES`` a GPU belongs to: AMD parts, unified-memory boards (DGX Spark, Jetson),
    laptop GPUs, GeForce desktop cards, NVIDIA workstation cards (RTX A/Ada/PRO, Quadro) and the
    data-centre parts (everything else: H100, A100, L40S, T4 …), read from the vendor and the name."""
    name = g.name.lower()
    if g.vendor == "amd" or g.platform == "rocm":
        return "amd"
    if g.unified_memory:
        return "unified"
    if "laptop" in name:
        return "laptop"
    if "geforce" in name:
        return "geforce"
    if name.startswith(("rtx", "quadro")):
        return "workstation"
    return "datacenter"


@lru_cache(maxsize=None)
def load_gpus(path: str | None = None) -> tuple[Gpu, ...]:
    p = Path(path) if path else DATA_DIR / "gpus.json"
    return parse_gpus(json.loads(p.read_text(encoding="utf-8")))


@lru_cache(maxsize=None)
def load_models(path: str | None = None) -> tuple[Model, ...]:
    p = Path(path) if path else DATA_DIR / "models.json"
    return parse_models(json.loads(p.read_text(encoding="utf-8")))


def find_gpu(query: str, gpus: tuple[Gpu, ...] | None = None) -> Gpu:
    """By key, CUDA device name or alias, case-insensitively ('h100', 'NVIDIA H100 80GB HBM3')."""
    gpus = gpus if gpus is not None else load_gpus()
    q = _norm(query)
    for g in gpus:
        if q == _norm(g.key) or q in (_norm(n) for n in g.cuda_names) or \
                q in (_norm(a) for a in g.aliases) or q == _norm(g.name):
            return g
    close = [g.key for g in gpus if q and (q in _norm(g.key) or q in _norm(g.name))]
    hint = Text("catalog.gpu_suggestions", names=", ".join(close[:5])) if close else \
        Text("catalog.gpu_list_hint")
    raise CatalogError(Text("catalog.unknown_gpu", query=repr(query), hint=hint))


def find_model(model_id: str, models: tuple[Model, ...] | None = None) -> Model | None:
    """The catalog entry for a Hugging Face id (case-insensitive), or None."""
    models = models if models is not None else load_models()
    q = model_id.strip().lower()
    for m in models:
        if m.id.lower() == q:
            return m
    return None
