import pytest

from kvcalc.errors import VersionError
from kvcalc.units import cdiv, format_gib
from kvcalc.versions import (NEWEST, Rule, Version, applies, default_batch_limits,
                             default_gpu_memory_utilization, ngc_release, parse_version, rules_table)

GIB = 1 << 30


@pytest.mark.parametrize("a,b,expected", [(17, 16, 2), (16, 16, 1), (0, 16, 0), (16511, 16, 1032)])
def test_cdiv(a, b, expected):
    assert cdiv(a, b) == expected


@pytest.mark.parametrize("num_bytes,text", [
    (54.32 * GIB, "54.32"), (50.60 * GIB, "50.6"), (3 * GIB, "3.0"), (0.004 * GIB, "0.0")])
def test_format_gib_drops_trailing_zeros_like_vllm(num_bytes, text):
    assert format_gib(num_bytes) == text


@pytest.mark.parametrize("text,expected", [
    ("0.14.1", Version(0, 14, 1)), ("v0.11.0", Version(0, 11, 0)), ("0.20", Version(0, 20, 0)),
    ("0.31.1rc1", Version(0, 31, 1)), (None, NEWEST), ("", NEWEST)])
def test_parse_version(text, expected):
    assert parse_version(text) == expected


@pytest.mark.parametrize("text,release,ngc", [
    ("0.11.1+9114fd76.nv25.12", Version(0, 11, 1), (25, 12)),   # what an NGC image prints
    ("0.13.0+faa43dbf.nv26.01", Version(0, 13, 0), (26, 1)),
    ("0.11.1+nv25.12", Version(0, 11, 1), (25, 12)),            # what the log reader keeps
    ("0.18.1rc1.dev147+g290809456", Version(0, 18, 1), None),   # a stock development build
    ("0.20.1.dev1", Version(0, 20, 1), None)])
def test_an_ngc_build_keeps_its_release_and_its_container(text, release, ngc):
    v = parse_version(text)
    assert v == release and ngc_release(v) == ngc and str(v) == text


@pytest.mark.parametrize("text", ["0.9.2", "1.2.0", "0.35.0", "banana", "0.1.dev15181"])
def test_parse_version_rejects_outside_range_with_a_reason(text):
    with pytest.raises(VersionError) as info:
        parse_version(text)
    assert text in str(info.value)


def test_utilization_default_changes_at_0_20_with_the_cuda_graph_estimate():
    """Both came with #38284: the v0.19.0 wheel's CacheConfig defaults to 0.9, v0.20.0's to 0.92."""
    assert default_gpu_memory_utilization(Version(0, 19, 1)) == 0.9
    assert default_gpu_memory_utilization(Version(0, 20, 0)) == 0.92
    assert applies(Rule.GPU_UTIL_DEFAULT_092, Version(0, 20, 0)) == applies(Rule.CUDA_GRAPH_ESTIMATE_DEDUCTED,
                                                                             Version(0, 20, 0))


def test_token_formula_rule_is_confirmed_at_0_21():
    assert not applies(Rule.TOKENS_FROM_CONCURRENCY, Version(0, 20, 0))
    assert applies(Rule.TOKENS_FROM_CONCURRENCY, Version(0, 21, 0))


@pytest.mark.parametrize("gib,name,entry,version,mnbt,seqs", [
    (79.19, "NVIDIA H100 80GB HBM3", "serve", "0.33.0", 8192, 1024),
    (79.19, "NVIDIA H100 80GB HBM3", "llm", "0.33.0", 16384, 1024),
    (79.25, "NVIDIA A100-SXM4-80GB", "serve", "0.33.0", 2048, 256),
    (23.99, "NVIDIA GeForce RTX 4090", "llm", "0.33.0", 8192, 256),
    (191.99, "AMD Instinct MI300X", "serve", "0.27.0", 8192, 1024),
    (191.99, "AMD Instinct MI300X", "serve", "0.28.0", 16384, 1024),
])
def test_batch_defaults_by_memory_class(gib, name, entry, version, mnbt, seqs):
    d = default_batch_limits(parse_version(version), int(gib * GIB), name, entry)
    assert (d.max_num_batched_tokens, d.max_num_seqs) == (mnbt, seqs)


@pytest.mark.parametrize("cc,version,mnbt,seqs", [
    ("11.0", "0.32.0", 2048, 256),     # Jetson AGX Thor: NVML has no total, the small row
    ("11.0", "0.33.0", 8192, 1024),    # v0.33 falls back to CUDA's 122.8 GiB
    ("12.1", "0.32.0", 2048, 256),     # GB10
    ("12.1", "0.33.0", 2048, 256),     # kept small by name (is_gb10)
])
def test_unified_memory_devices_take_cuda_total_from_0_33_except_gb10(cc, version, mnbt, seqs):
    d = default_batch_limits(parse_version(version), int(122.82 * GIB), "NVIDIA Thor", "serve",
                             unified_memory=True, compute_capability=cc)
    assert (d.max_num_batched_tokens, d.max_num_seqs) == (mnbt, seqs)


def test_every_rule_names_release_pr_and_basis():
    for row in rules_table():
        assert row["pr"] and row["source"] and row["basis"].split(":")[0] in (
            "confirmed", "inferred", "release-notes summary; not confirmed in code")


def test_releases_after_the_newest_log_say_so():
    """A release newer than any stored public log (NEWEST_LOGGED) gets a note saying its rules come
    from its code alone, in both languages; a logged release does not."""
    from factories import calc

    new = [n for n in calc("Qwen/Qwen3-8B", vllm_version="0.33.0").notes if "no public startup log" in str(n)]
    assert len(new) == 1 and "0.33" in str(new[0]) and "0.31" in str(new[0])
    assert "尚未核对" in new[0].render("zh")
    assert not any("no public startup log" in str(n) for n in calc("Qwen/Qwen3-8B", vllm_version="0.31.0").notes)
