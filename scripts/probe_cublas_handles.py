"""GPU probe: how much free memory the first cuBLAS/cuBLASLt calls take on one GPU.

Why: from v0.33 vLLM's ``init_device`` runs a 16 x 16 ``torch.mm`` and a ``linear`` with bias before
its first memory snapshot (Rule.CUBLAS_HANDLES_BEFORE_SNAPSHOT), so what cuBLAS takes at its first
call leaves the profile's count. This measures that amount three ways, each in a fresh process:
"snippet" (v0.33's lines alone), "big" (the first 8,192-token GEMMs of a dense model's profile pass,
what earlier releases paid inside the profile) and "snippet_then_big" (what the profile still pays
after the snippet). It prints used/reserved/allocated deltas in MiB (2^20 B); non-torch = used -
reserved, as vllm/utils/mem_utils.py MemorySnapshot counts it.

Needs a CUDA GPU and torch; run ``python scripts/probe_cublas_handles.py`` (writes
$OUT/cublas_probe.json when OUT is set). Result behind reserve.CUBLAS_PREPAID_BYTES, H200, torch
2.11.0+cu130, driver 580.159.04, 2026-11-30, bf16 and fp16 alike: snippet +190 MiB used (32 torch
workspace, 158 outside torch), big +100 MiB (32 + 68), snippet_then_big +190 then +0."""
import json, os, subprocess, sys

def child(mode, dtype_name):
    import torch
    dev = torch.device("cuda:0")
    dtype = getattr(torch, dtype_name)
    torch.cuda.set_device(dev)
    torch.empty(1, device=dev)
    torch.cuda.synchronize()
    def snap(tag):
        torch.cuda.synchronize()
        free, total = torch.cuda.mem_get_info()
        st = torch.cuda.memory_stats()
        return dict(tag=tag, used=total - free, reserved=torch.cuda.memory_reserved(),
                    allocated=st.get("allocated_bytes.all.current", 0))
    out = [snap("init")]
    if mode.startswith("snippet"):
        x = torch.ones(16, 16, dtype=dtype, device=dev)
        torch.mm(x, x)
        torch.nn.functional.linear(x, x, x[0])
        del x
        torch.cuda.empty_cache()
        out.append(snap("after_snippet"))
    if mode.endswith("big"):
        # dense-model-like GEMMs of a 8,192-token profile pass (Qwen3-8B shapes), with and without bias
        a = torch.randn(8192, 4096, dtype=dtype, device=dev)
        for n, k, bias in ((6144, 4096, True), (4096, 4096, False), (24576, 4096, False), (4096, 12288, False)):
            w = torch.randn(n, k, dtype=dtype, device=dev)
            b = torch.randn(n, dtype=dtype, device=dev) if bias else None
            inp = a if k == 4096 else torch.randn(8192, k, dtype=dtype, device=dev)
            y = torch.nn.functional.linear(inp, w, b)
            torch.mm(inp, w.t())
            del w, b, inp, y
        small = torch.randn(7, 4096, dtype=dtype, device=dev)
        torch.nn.functional.linear(small, torch.randn(151936, 4096, dtype=dtype, device=dev))
        del a, small
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        out.append(snap("after_big"))
    print(json.dumps(dict(mode=mode, dtype=dtype_name, snaps=out)))

if __name__ == "__main__":
    if len(sys.argv) > 2:
        child(sys.argv[1], sys.argv[2]); sys.exit(0)
    import torch
    info = dict(torch=torch.__version__, cuda=torch.version.cuda, device=torch.cuda.get_device_name(0),
                cublaslt_ws=os.environ.get("CUBLASLT_WORKSPACE_SIZE"), cublas_cfg=os.environ.get("CUBLAS_WORKSPACE_CONFIG"),
                module_loading=os.environ.get("CUDA_MODULE_LOADING"))
    print(json.dumps(info))
    results = []
    for dtype_name in ("bfloat16", "float16"):
        for mode in ("snippet", "big", "snippet_then_big"):
            for rep in range(2):
                r = subprocess.run([sys.executable, __file__, mode, dtype_name], capture_output=True, text=True)
                line = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-2000:]
                print(line, flush=True)
                try:
                    results.append(json.loads(line))
                except Exception:
                    pass
    MiB = 2**20
    for r in results:
        s = r["snaps"]
        base = s[0]
        parts = []
        for t in s[1:]:
            parts.append("%s: used +%.1f MiB, torch reserved +%.1f, allocated +%.1f, non-torch +%.1f" % (
                t["tag"], (t["used"] - base["used"]) / MiB, (t["reserved"] - base["reserved"]) / MiB,
                (t["allocated"] - base["allocated"]) / MiB,
                ((t["used"] - t["reserved"]) - (base["used"] - base["reserved"])) / MiB))
        print(r["dtype"], r["mode"], "|", "; ".join(parts))
    out = os.environ.get("OUT")
    if out:
        json.dump(dict(info=info, results=results), open(os.path.join(out, "cublas_probe.json"), "w"), indent=1)
