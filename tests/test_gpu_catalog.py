"""The GPU catalog itself (data/gpus.json): every entry can be found by what users type, says where
its total comes from, and holds a total that fits the card it names.

A lookup returns the first entry a name matches (catalog.find_gpu), so a key, alias or display name
shared by two entries would silently hide the second one; CUDA names may be shared only where the
driver really prints one name for two cards, which the later entry's notes must say."""

import json
import re
from collections import defaultdict

import pytest

from kvcalc import api
from kvcalc.catalog import DATA_DIR, GPU_CLASSES, find_gpu, gpu_class, load_gpus
from kvcalc.kvspecs import parse_capability

GIB = 1 << 30
RAW = json.loads((DATA_DIR / "gpus.json").read_text(encoding="utf-8"))["gpus"]


def _norm(text: str) -> str:
    return re.sub(r"[\s_]+", " ", str(text).strip().lower())


def test_every_key_alias_and_name_picks_one_gpu():
    owners: dict[str, set[str]] = defaultdict(set)
    for g in RAW:
        for spelling in (g["key"], g["name"], *g.get("aliases", ())):
            owners[_norm(spelling)].add(g["key"])
    shared = {spelling: sorted(keys) for spelling, keys in owners.items() if len(keys) > 1}
    assert not shared, f"spellings that name two catalog GPUs: {shared}"
    for g in RAW:
        for spelling in (g["key"], *g.get("aliases", ())):
            assert find_gpu(spelling).key == g["key"], spelling


def test_a_cuda_name_shared_by_two_entries_is_explained_where_the_lookup_cannot_reach():
    first: dict[str, str] = {}
    for g in RAW:
        for name in g.get("cuda_names", ()):
            n = _norm(name)
            if n in first and first[n] != g["key"]:
                assert "cuda name" in (g.get("notes") or "").lower(), \
                    f"{g['key']} shares the CUDA name {name!r} with {first[n]} without saying so"
            elif n not in first:
                first[n] = g["key"]
                assert find_gpu(name).key == g["key"]


@pytest.mark.parametrize("g", RAW, ids=lambda g: g["key"])
def test_each_total_has_a_basis_a_source_and_fits_its_card(g):
    assert g["total_bytes_basis"].strip() and g["source"], "every total says where it comes from"
    total = g["total_bytes"] / GIB
    # what CUDA offers lies below the marketed size (GB or GiB) and above 85% of it in GB
    assert 0.85 * g["marketing_gb"] * 1e9 / GIB <= total <= g["marketing_gb"], total
    if g.get("nvidia_smi_mib"):
        assert g["total_bytes"] <= g["nvidia_smi_mib"] * (1 << 20), "the driver keeps some memory back"
    assert g["platform"] in ("cuda", "rocm")
    if g["platform"] == "cuda":
        assert parse_capability(g["compute_capability"]) is not None


def test_the_catalog_loads_every_entry():
    assert [g.key for g in load_gpus()] == [g["key"] for g in RAW]


def test_each_gpu_is_listed_under_the_group_its_kind_belongs_to():
    """The page groups the GPU list by kind (catalog.gpu_class); the catalog keeps each group together
    so the list reads in its own order."""
    by_class = {g.key: gpu_class(g) for g in load_gpus()}
    assert (by_class["h100-sxm"], by_class["t4"], by_class["a40"]) == ("datacenter",) * 3
    assert (by_class["gb10"], by_class["jetson-agx-thor"]) == ("unified", "unified")
    assert (by_class["rtx-pro-6000"], by_class["rtx-a6000"], by_class["rtx-6000-ada"]) == ("workstation",) * 3
    assert (by_class["rtx-pro-4000"], by_class["quadro-rtx-6000"]) == ("workstation",) * 2
    assert (by_class["rtx-4090"], by_class["rtx-4090-48g"], by_class["rtx-2080-ti"]) == ("geforce",) * 3
    assert (by_class["rtx-4080-laptop"], by_class["rtx-4060-laptop"]) == ("laptop", "laptop")
    assert (by_class["mi300x"], by_class["radeon-pro-w7900"]) == ("amd", "amd")
    order = [GPU_CLASSES.index(c) for c in by_class.values()]
    assert order == sorted(order), "the catalog lists each group's GPUs together, in GPU_CLASSES order"


def test_a_total_copied_from_a_sister_card_is_said_until_the_user_gives_one():
    """An entry whose basis says 'estimated' (the RTX 5090 D's total is the RTX 5090's, the RTX PRO 4000
    Blackwell's is derived from the other GDDR7 Blackwell cards) carries a note
    asking for the log's own total; a measured entry, or the user's own total, has none."""
    def notes(**req):
        r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "settings": {"max_model_len": 4096}, **req})
        assert r["ok"], r
        return " ".join(r["result"]["notes"])

    assert [g.key for g in load_gpus() if g.total_estimated] == [g["key"] for g in RAW
                                                                   if g["total_bytes_basis"].startswith("estimated")]
    assert "sister card" in notes(gpu="rtx-5090d")
    assert "sister card" in notes(gpu="rtx-pro-4000")
    assert "sister card" not in notes(gpu="rtx-5090")
    assert "sister card" not in notes(gpu="rtx-5090d", gpu_total_gib=31.36)


def test_a_turing_workstation_card_is_sized_as_turing():
    """The Quadro RTX 6000 (sm_75) has no bfloat16: vLLM casts a bf16 checkpoint to float16, so the KV
    cache is float16 there while the same request on an Ada card keeps bfloat16."""
    def kv_dtype(gpu):
        r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": gpu, "settings": {"max_model_len": 4096}})
        assert r["ok"], r
        return r["result"]["settings"]["kv_cache_dtype_resolved"]

    assert find_gpu("Quadro RTX 6000").key == "quadro-rtx-6000"
    assert kv_dtype("quadro-rtx-6000") == "float16"
    assert kv_dtype("rtx-a6000") == "bfloat16"
