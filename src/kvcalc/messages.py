"""Sentences the core shows to people, in English and Chinese, keyed so the page can switch.

The core keeps returning plain English strings, so the CLI, the JSON output and every test
that reads a message see the same text as before. What is new is that such a string may be a
:class:`Text`: a ``str`` that remembers its message key and parameters. At the JSON boundary
``api.handle`` collects every :class:`Text` in a reply with :func:`translations` and adds
``{"zh": {english: chinese}}``; the page looks each string it shows up in that map. A string
built some other way (an f-string around a Text, a vLLM log line) simply stays English.

Templates use ``str.format`` fields; both languages of a key take the same fields
(``tests/test_messages.py`` checks that, and that every key the code uses exists).
A parameter that is itself a :class:`Text` is rendered in the same language.
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from .config_messages import CONFIG_MESSAGES

LANGUAGES = ("en", "zh")

MESSAGES: dict[str, tuple[str, str]] = {
    # ---- settings (settings.py, api.py, engine.py, kvspecs.py, plan.py)
    "settings.release": (
        "must be a release number such as 0.14.1, got {value}",
        "须为发行版本号（如 0.14.1），收到的是 {value}"),
    "settings.whole_number": (
        "must be a whole number, got {value}",
        "须为整数，收到的是 {value}"),
    "settings.size_text": (
        "must be a whole number, as digits or with vLLM's suffixes k/m/g/t (x 1000, 25.6k = 25,600) or "
        "K/M/G/T (x 1024, 8G = 8,589,934,592); got {value}",
        "须为整数：直接写数字，或用 vLLM 的后缀 k/m/g/t（x 1000，25.6k = 25,600）或 K/M/G/T"
        "（x 1024，8G = 8,589,934,592）；收到的是 {value}"),
    "settings.max_len_text": (
        "must be a whole number (32768, 32k = 32,000, 32K = 32,768) or auto (-1: the longest length the "
        "KV cache holds, vLLM 0.14+); got {value}",
        "须为整数（32768、32k = 32,000、32K = 32,768）或 auto（-1：KV cache 能容纳的最长长度，vLLM 0.14+）；"
        "收到的是 {value}"),
    "settings.binary_suffix_decimal": (
        "vLLM refuses decimals with the binary suffix {suffix} (x 1024), got {value}; write a whole number, "
        "or {lower} for x 1000",
        "vLLM 不接受二进制后缀 {suffix}（x 1024）前带小数，收到的是 {value}；请写整数，或用 {lower} 表示 x 1000"),
    "settings.max_len_auto_release": (
        "auto (-1) needs vLLM {since} or newer ({pr}); you chose {version}, which needs a length: "
        "choose a newer release, or type the length",
        "auto（-1）需要 vLLM {since} 或更高版本（{pr}）；当前选择的是 {version}，它需要具体长度："
        "请选择更新的版本，或填写长度"),
    "settings.mm_item_whole_default": (
        "vLLM {version} refuses to start: Gemma 4 takes each {modality} item whole ({tokens:,} tokens; its "
        "bidirectional vision attention turns chunked multimodal input off), more than the {mnbt:,} tokens per "
        "step this release fills in ('Chunked MM input disabled but max_tokens_per_mm_item ({tokens}) is larger "
        "than max_num_batched_tokens ({mnbt})'). Set --max-num-batched-tokens {tokens} or more, turn {modality} "
        "off with --limit-mm-per-prompt, serve text only with --language-model-only, or choose vLLM 0.22 or "
        "newer, which raises the default",
        "vLLM {version} 会拒绝启动：Gemma 4 的每个 {modality} 项必须整体处理（{tokens:,} 个 token；它的视觉双向注意力"
        "关闭了多模态输入分块），超过该版本默认的每步 {mnbt:,} 个 token（'Chunked MM input disabled but "
        "max_tokens_per_mm_item ({tokens}) is larger than max_num_batched_tokens ({mnbt})'）。请设置 "
        "--max-num-batched-tokens {tokens} 或更大，用 --limit-mm-per-prompt 关闭 {modality}，用 --language-model-only "
        "只服务文本，或选择会自动提高默认值的 vLLM 0.22 及以上版本"),
    "settings.mm_item_whole_given": (
        "vLLM {version} refuses to start: Gemma 4 takes each {modality} item whole ({tokens:,} tokens; its "
        "bidirectional vision attention turns chunked multimodal input off), more than --max-num-batched-tokens "
        "{mnbt:,} ('Chunked MM input disabled but max_tokens_per_mm_item ({tokens}) is larger than "
        "max_num_batched_tokens ({mnbt})'). Set it to {tokens} or more, turn {modality} off with "
        "--limit-mm-per-prompt, or serve text only with --language-model-only",
        "vLLM {version} 会拒绝启动：Gemma 4 的每个 {modality} 项必须整体处理（{tokens:,} 个 token；它的视觉双向注意力"
        "关闭了多模态输入分块），超过 --max-num-batched-tokens {mnbt:,}（'Chunked MM input disabled but "
        "max_tokens_per_mm_item ({tokens}) is larger than max_num_batched_tokens ({mnbt})'）。请把它设为 {tokens} "
        "或更大，用 --limit-mm-per-prompt 关闭 {modality}，或用 --language-model-only 只服务文本"),
    "settings.cpu_offload": (
        "must be a number of GiB per GPU, 0 or more (vLLM's default 0: nothing offloaded), got {value}",
        "须为每块 GPU 的 GiB 数，0 或以上（vLLM 默认 0：不卸载），收到的是 {value}"),
    "settings.cpu_offload_unpinned": (
        "vLLM {version} refuses to start: its CPU offloading needs pinned host memory, which it does not use "
        "under WSL2 ('V1 CPU offloading requires uva (pin memory) support'). Choose vLLM {since} or newer, which "
        "copies the offloaded weights in instead, or run on Linux",
        "vLLM {version} 会拒绝启动：它的 CPU 卸载需要锁页主机内存，而在 WSL2 下它不使用锁页内存（'V1 CPU offloading "
        "requires uva (pin memory) support'）。请选择 vLLM {since} 或更高版本（改为把被卸载的权重拷入），或在 Linux 上运行"),
    "settings.hybrid_mla_forced_block": (
        "vLLM {version} cannot start this model here: it sizes the attention block at {block} tokens so one "
        "page holds a state layer's page, then {backend}, which it picks for MLA on this GPU, forces a block "
        "that is a multiple of {forced} tokens, and the attention and state pages no longer match "
        "(NotImplementedError while the KV cache groups are built). Choose vLLM {since} or newer, where the "
        "backend's block no longer replaces the cache's, or a tensor-parallel size whose block is a multiple "
        "of {forced}",
        "vLLM {version} 在这里无法启动该模型：它先把注意力块定为 {block} 个 token，使一页能容纳状态层的一页，随后它在该 "
        "GPU 上为 MLA 选用的 {backend} 又强制块大小为 {forced} 的整数倍，注意力页与状态页从而不再相等（构建 KV cache "
        "组时抛出 NotImplementedError）。请选择 vLLM {since} 或更新的版本（后端的块不再替换缓存的块），或选择使块为 "
        "{forced} 整数倍的张量并行数"),
    "settings.mamba_dtype_release": (
        "vLLM {version} does not take {value} here (it takes {allowed}); {value} arrived in vLLM {since}: choose "
        "that release or a newer one, or another dtype",
        "vLLM {version} 在这里不接受 {value}（它接受 {allowed}）；{value} 从 vLLM {since} 起才有：请选择该版本或更新的"
        "版本，或换一种精度"),
    "note.falcon_h1_mlp_16_bit": (
        "vLLM {version} builds Falcon-H1's MLP without the checkpoint's quantization config (v{since} passes "
        "it); kvcalc prices the MLP quantized, as the checkpoint stores it, which this release does not do, "
        "so treat the weights term as uncertain here, or choose v{since} or newer",
        "vLLM {version} 构建 Falcon-H1 的 MLP 时不传检查点的量化配置（v{since} 起才传）；kvcalc 按检查点存储的量化"
        "形式为 MLP 计价，而该版本并非如此，因此这里的权重一项不确定，或请选择 v{since} 或更新的版本"),
    "settings.model_removed": (
        "vLLM {version} no longer runs {model}: it stops with '{model} was supported in vLLM until v{last}'. "
        "Choose vLLM {last} or older",
        "vLLM {version} 已不再支持 {model}：启动时报 '{model} was supported in vLLM until v{last}'。请选择 vLLM "
        "{last} 或更早的版本"),
    "note.lightning_ssm_dtype_ignored": (
        "--mamba-ssm-cache-dtype {value} does not apply to MiniMax's lightning attention: its state follows "
        "the model dtype (or --mamba-cache-dtype)",
        "--mamba-ssm-cache-dtype {value} 对 MiniMax 的 lightning attention 不起作用：它的状态跟随模型精度（或 "
        "--mamba-cache-dtype）"),
    "settings.zamba2_no_pp": (
        "vLLM's Zamba2 class does not support pipeline parallelism (it is not SupportsPP): use "
        "--pipeline-parallel-size 1 and, for more memory, --tensor-parallel-size",
        "vLLM 的 Zamba2 模型类不支持流水线并行（不是 SupportsPP）：请使用 --pipeline-parallel-size 1，需要更多显存时"
        "改用 --tensor-parallel-size"),
    "settings.kda_off_cuda": (
        "kvcalc sizes Kimi Linear on NVIDIA GPUs only: on {platform} vLLM runs it through other KDA and MLA "
        "classes (vllm/models/kimi_k3/amd from v0.27), whose cache kvcalc has not checked against vLLM's code. "
        "Choose an NVIDIA GPU",
        "kvcalc 只在 NVIDIA GPU 上估算 Kimi Linear：在 {platform} 上 vLLM 用另外的 KDA 与 MLA 类运行它（从 v0.27 起为 "
        "vllm/models/kimi_k3/amd），kvcalc 尚未对照 vLLM 代码核对它们的缓存。请选择 NVIDIA GPU"),
    "settings.kda_ssm_dtype": (
        "vLLM {version} cannot start Kimi Linear with --mamba-ssm-cache-dtype {value}: its KDA layers keep the "
        "recurrent state in float32, {detail}. Leave the flag at auto or float32",
        "vLLM {version} 无法在 --mamba-ssm-cache-dtype {value} 下启动 Kimi Linear：它的 KDA 层把递归状态保存为 "
        "float32，{detail}。请保持该参数为 auto 或 float32"),
    "settings.kda_ssm_dtype.float16": (
        "and the KDA state accepts only auto, float32 and bfloat16 ('KDA recurrent state supports only auto, "
        "float32, and bfloat16')",
        "且 KDA 状态只接受 auto、float32 与 bfloat16（'KDA recurrent state supports only auto, float32, and "
        "bfloat16'）"),
    "settings.kda_ssm_dtype.bfloat16": (
        "but the model class sizes the state page for a 16-bit state, which is too small for the layer's "
        "(MambaSpec asserts page_size_padded >= page_size)",
        "但模型类按 16 位状态计算状态页，对该层的状态来说太小（MambaSpec 断言 page_size_padded >= page_size）"),
    "note.kda_ssm_dtype_ignored": (
        "--mamba-ssm-cache-dtype {value} does not apply to Kimi Linear in vLLM {version}: its KDA layers keep "
        "the recurrent state in float32",
        "在 vLLM {version} 中 --mamba-ssm-cache-dtype {value} 对 Kimi Linear 不起作用：它的 KDA 层把递归状态保存为 float32"),
    "settings.hybrid_spec_refused": (
        "vLLM {version} cannot run speculative decoding with {model}: its state layers stop the start ('Mamba "
        "with speculative decoding is not supported yet.'; only Qwen3-Next is let through). Choose vLLM {since} "
        "or newer, or leave --speculative-config out",
        "vLLM {version} 无法对 {model} 使用推测解码：其状态层会让启动停止（'Mamba with speculative decoding is not "
        "supported yet.'；只有 Qwen3-Next 例外）。请选择 vLLM {since} 或更新的版本，或去掉 --speculative-config"),
    "settings.state_spec_page": (
        "vLLM {version} cannot start this model with {tokens} speculative tokens: each state layer keeps a "
        "convolution slot per speculative token, {state:,} bytes of state in all, but vLLM pads the state "
        "to a page it sizes without those slots ({page:,} bytes) and asserts the state fits. Use fewer "
        "speculative tokens, a 16-bit KV cache (a larger attention page), or a release that counts them",
        "vLLM {version} 无法以 {tokens} 个推测 token 启动该模型：每个状态层为每个推测 token 多保留一格卷积状态，状态共 "
        "{state:,} 字节，而 vLLM 把状态补齐到的页按不含这些格计算（{page:,} 字节），并断言状态能放下。请减少推测 "
        "token、使用 16 位 KV 缓存（注意力页更大），或选择计入这些格的版本"),
    "settings.model_before_release": (
        "vLLM {version} has no model class of its own for {model} (vLLM {since} added it): it stops at "
        "start-up, or, where the installed transformers has the model, runs it through its Transformers "
        "backend, whose cache for these layers kvcalc does not size. Choose vLLM {since} or newer",
        "vLLM {version} 没有 {model} 自己的模型类（vLLM {since} 才加入）：启动时会报错，或者在已安装的 "
        "transformers 带有该模型时改走 Transformers 后端，而 kvcalc 不估算该后端为这些层分配的缓存。请选择 "
        "vLLM {since} 或更新的版本"),
    "settings.mrv2_needs_pinned": (
        "vLLM {version} cannot start model runner V2 without pinned host memory: under WSL2 it fails with "
        "'RuntimeError: UVA is not available'. Set VLLM_WSL2_ENABLE_PIN_MEMORY=1 (pinned memory: available), "
        "keep the V1 runner (VLLM_USE_V2_MODEL_RUNNER=0), or choose vLLM {since} or newer, where V2 puts "
        "those buffers in GPU memory",
        "vLLM {version} 在没有锁页主机内存时无法启动 model runner V2：在 WSL2 下会以“RuntimeError: UVA is not available”"
        "失败。请设置 VLLM_WSL2_ENABLE_PIN_MEMORY=1（锁页内存：可用），或保留 V1 runner（VLLM_USE_V2_MODEL_RUNNER=0），"
        "或选择 vLLM {since} 或更高版本（V2 会把这些缓冲区放在显存中）"),
    "settings.data_parallel_moe": (
        "with data parallelism vLLM spreads a MoE model's experts over all {gpus} GPUs (data × tensor parallel) "
        "and gathers every rank's tokens for them, which kvcalc does not size: size one replica without "
        "--data-parallel-size for a dense-like estimate, and keep a margin",
        "启用数据并行时，vLLM 会把 MoE 模型的专家分布到全部 {gpus} 张 GPU（数据并行 × 张量并行）上，并为它们汇集每个 rank 的 token，"
        "kvcalc 不估算这种情况：可去掉 --data-parallel-size 按单个副本估算，并留出余量"),
    "note.expert_parallel": (
        "--enable-expert-parallel: each of the {tp} GPUs holds whole experts ({local} of the {experts} on the "
        "first GPU, whose figures vLLM prints) instead of a 1/{tp} slice of every expert; the weights come to "
        "about the same, but the fused-MoE buffers of the profile run work on each expert's full width. Three "
        "public starts check this (TP 2 and TP 8: the weights match the logs); the CUDA-graph part is the least "
        "certain",
        "--enable-expert-parallel：{tp} 张 GPU 各自持有完整的专家（第一张 GPU 上为 {experts} 个中的 {local} 个，"
        "vLLM 打印的是它的数字），而不是每个专家的 1/{tp}；权重总量大致相同，但 profile 运行中融合 MoE 的缓冲区"
        "按专家的完整宽度计算。有三次公开启动日志可以核对（TP 2 与 TP 8：权重与日志一致）；CUDA graph 部分最不确定"),
    "note.quant_method_unpriced": (
        "the checkpoint declares quantization '{method}', whose format kvcalc does not price: its weights are "
        "counted at 16 bits here, so the pool shown is too small by what that format saves. Give the checkpoint's "
        "size (the page reads it from Hugging Face; the CLI takes --weights-bytes) for the real figure",
        "该检查点声明的量化方式为 '{method}'，kvcalc 尚不能按其格式计价：这里按 16 位计算权重，因此显示的缓存池偏小，"
        "偏小的量即该格式节省的显存。请提供检查点大小（页面会从 Hugging Face 读取；CLI 使用 --weights-bytes）以得到真实数值"),
    "note.extensible_kv_cache": (
        "vLLM v0.34 sizes this pool with its extensible KV cache: the printed 'Available KV cache memory' only "
        "reserves the pool's address space; after warm-up and CUDA-graph capture vLLM commits what is then free, "
        "less the largest activation peak and a safety margin (at --gpu-memory-utilization {util}). No public "
        "v0.34 log exists yet, so this pool comes from reading vLLM's code, not from a log",
        "vLLM v0.34 用可扩展 KV 缓存确定该缓存池：打印的 'Available KV cache memory' 只预留缓存池的地址空间；预热和 "
        "CUDA 图捕获之后，vLLM 提交当时空闲的显存，减去最大的激活峰值和一个安全余量（--gpu-memory-utilization {util}）。"
        "目前还没有公开的 v0.34 日志，因此该缓存池来自对 vLLM 代码的阅读，而非日志"),
    "note.extensible_from_log": (
        "With v0.34's extensible KV cache the log's 'Available KV cache memory' is the reserved ceiling, not the "
        "pool: kvcalc subtracts its estimate of what warm-up takes beyond it (CUDA graphs, memory in use at "
        "start-up, the margin), so the pool from this log is an estimate with that band; the log's own 'Extended "
        "KV cache to N blocks' line gives the exact count",
        "在 v0.34 的可扩展 KV 缓存下，日志中的 'Available KV cache memory' 是预留的上限而非缓存池：kvcalc 减去它对预热"
        "额外占用（CUDA 图、启动时已用的显存、余量）的估计，因此由该日志得到的缓存池是带区间的估计；日志自己的 "
        "'Extended KV cache to N blocks' 行给出确切块数"),
    "note.extensible_from_log_ceiling": (
        "With v0.34's extensible KV cache the log's 'Available KV cache memory' is only the reserved ceiling; "
        "without an estimate of the weights kvcalc cannot say how much of it warm-up leaves, so the pool shown "
        "is that ceiling. The log's 'Extended KV cache to N blocks' line gives the real count",
        "在 v0.34 的可扩展 KV 缓存下，日志中的 'Available KV cache memory' 只是预留的上限；没有权重估计时，kvcalc 无法"
        "判断预热后还剩多少，因此显示的缓存池就是该上限。日志中的 'Extended KV cache to N blocks' 行给出真实块数"),
    "note.kv_connector": (
        "--kv-transfer-config {connector}: the connector registers the KV cache for transfer and keeps no GPU "
        "buffer of its own in public prefill/decode starts (eight on an L4 and an RTX 3090 land within 1.7% as "
        "if it were not there), so the pool is sized as without it",
        "--kv-transfer-config {connector}：该 connector 只是为传输注册 KV 缓存，在公开的 prefill/decode 启动日志中"
        "不另占显存（L4 和 RTX 3090 上的八次启动与不使用它时的估算相差不到 1.7%），因此缓存池按不使用它时估算"),
    "note.expert_parallel_dense": (
        "--enable-expert-parallel changes nothing here: the model has no experts",
        "--enable-expert-parallel 在这里不起作用：该模型没有专家"),
    "note.expert_parallel_one_gpu": (
        "--enable-expert-parallel changes nothing here: the expert-parallel size is tensor × data "
        "parallel, here 1",
        "--enable-expert-parallel 在这里不起作用：专家并行规模等于张量并行 × 数据并行，这里为 1"),
    "note.data_parallel": (
        "--data-parallel-size {dp}: vLLM starts {dp} engines, each sizing its own pool on its own {per} GPU(s) and "
        "printing these lines for itself; the figures are one engine's, {dp} × the pool in all, on {gpus} GPUs",
        "--data-parallel-size {dp}：vLLM 启动 {dp} 个引擎，各自在自己的 {per} 张 GPU 上确定缓存池并各自打印这些行；"
        "上面的数字是单个引擎的，总计为 {dp} × 缓存池，共 {gpus} 张 GPU"),
    "flags.expert_parallel": (
        "expert load balancing (EPLB) and elastic expert parallelism are not modelled: they add redundant "
        "experts and move experts between GPUs while serving; plain --enable-expert-parallel is",
        "尚未建模专家负载均衡（EPLB）和弹性专家并行：它们会增加冗余专家，并在服务期间在 GPU 之间移动专家；"
        "单独的 --enable-expert-parallel 已建模"),
    "flags.lora": (
        "LoRA adapters are not modelled: vLLM keeps GPU buffers for them, so the pool would come out too large",
        "尚未建模 LoRA 适配器：vLLM 会为其保留 GPU 缓冲区，因此算出的缓存池会偏大"),
    "flags.env_v0_engine": (
        "set to 0 it runs v0.10's older V0 engine, whose memory profile and block manager kvcalc does not model "
        "(from v0.11.0 only the V1 engine runs): leave it unset",
        "设为 0 时 v0.10 运行旧的 V0 引擎，kvcalc 未对其显存分析与块管理建模（自 v0.11.0 起只运行 V1 引擎）：请不要设置它"),
    "flags.env_removed": (
        "vLLM {since} and later refuse to start with {name} set (a removed variable: Marlin no longer takes 8-bit "
        "activations; vLLM names --quantization humming instead): unset it",
        "vLLM {since} 及更高版本在设置了 {name} 时拒绝启动（该变量已移除：Marlin 不再接受 8 位激活；vLLM 建议改用 "
        "--quantization humming）：请取消设置"),
    "flags.kv_connector": (
        "KV transfer and offloading connectors other than NixlConnector are not modelled: they can take GPU "
        "memory of their own",
        "除 NixlConnector 外，尚未建模 KV 传输与卸载连接器：它们可能自己占用 GPU 显存"),
    "settings.mnbt_below_len_unchunked": (
        "vLLM {version} refuses to start: without chunked prefill a step must hold a whole prompt, but "
        "--max-num-batched-tokens {mnbt:,} is below --max-model-len {length:,} ('max_num_batched_tokens ... is "
        "smaller than max_model_len'); raise it, lower the length, or keep chunked prefill on",
        "vLLM {version} 会拒绝启动：关闭分块预填充后每一步必须容纳整条提示，但 --max-num-batched-tokens {mnbt:,} 小于 "
        "--max-model-len {length:,}（'max_num_batched_tokens ... is smaller than max_model_len'）；请调大它、缩短长度，"
        "或保持分块预填充开启"),
    "note.chunked_prefill_forced": (
        "vLLM {version} turns chunked prefill on for every generation model whatever --no-enable-chunked-prefill "
        "says (from {since} the flag is kept), so it is sized with chunked prefill",
        "vLLM {version} 对所有生成模型都强制开启分块预填充，--no-enable-chunked-prefill 不起作用（{since} 起才保留该参数），"
        "因此按开启分块预填充估算"),
    "flags.compilation": (
        "only a compilation config given as JSON (or as --compilation-config.cudagraph_mode=…) is read, for cudagraph_mode, "
        "cudagraph_capture_sizes and max_cudagraph_capture_size, and an optimization level -O0 to -O3",
        "只读取以 JSON（或 --compilation-config.cudagraph_mode=…）给出的编译配置中的 cudagraph_mode、cudagraph_capture_sizes 与 "
        "max_cudagraph_capture_size，以及优化级别 -O0 到 -O3"),
    "flags.compilation_keys": (
        "of the compilation config kvcalc reads cudagraph_mode, cudagraph_capture_sizes and "
        "max_cudagraph_capture_size; the other keys ({keys}) change what vLLM compiles or captures in ways it "
        "does not size",
        "编译配置中 kvcalc 只读取 cudagraph_mode、cudagraph_capture_sizes 与 max_cudagraph_capture_size；其他键"
        "（{keys}）会改变 vLLM 编译或捕获的内容，kvcalc 不估算其影响"),
    "flags.encoder_tp_mode": (
        "the vision encoder's TP mode is not modelled: 'data' keeps a whole encoder on every GPU instead of a "
        "shard",
        "尚未建模视觉编码器的 TP 模式：'data' 会在每块 GPU 上保留完整的编码器，而不是切分"),
    "flags.attention_config": (
        "of the attention config kvcalc reads only backend; the other keys ({keys}) change kernels whose memory "
        "it does not size",
        "注意力配置中 kvcalc 只读取 backend；其他键（{keys}）会改变 kvcalc 不估算其显存的内核"),
    "flags.attention_config_json": (
        "kvcalc reads the attention config as a JSON object, such as '{{\"backend\": \"FLASHINFER\"}}', or as "
        "--attention-config.backend=FLASHINFER",
        "kvcalc 只读取 JSON 对象形式的注意力配置，如 '{{\"backend\": \"FLASHINFER\"}}'，或 --attention-config.backend=FLASHINFER"),
    # ---- a forced attention backend (attention.py)
    "attn.dcp_rocm": (
        "vLLM {version} runs decode context parallelism on ROCm only for dense MLA models (Triton MLA): its "
        "backends for plain attention and for sparse MLA do not support it, so it finds no valid backend. "
        "Leave --decode-context-parallel-size at 1",
        "vLLM {version} 在 ROCm 上只对稠密 MLA 模型（Triton MLA）支持 decode context parallel：其普通注意力后端与稀疏 "
        "MLA 后端都不支持，因此找不到可用的后端。请把 --decode-context-parallel-size 保持为 1"),
    "attn.dcp_backend": (
        "vLLM {version} runs decode context parallelism only on FlashAttention, FlashInfer and the MLA "
        "backends; this model runs on {backend} here, which does not support it, so vLLM finds no valid "
        "backend. Leave --decode-context-parallel-size at 1",
        "vLLM {version} 只在 FlashAttention、FlashInfer 与 MLA 后端上支持 decode context parallel；该模型在此运行于 "
        "{backend}，它不支持，因此 vLLM 找不到可用的后端。请把 --decode-context-parallel-size 保持为 1"),
    "attn.nvfp4_platform": (
        "vLLM {version} keeps an nvfp4 KV cache only on NVIDIA GPUs (FlashInfer alone lists it); no ROCm "
        "backend does, so it stops with 'No valid attention backend'",
        "vLLM {version} 只在 NVIDIA GPU 上支持 nvfp4 KV 缓存（只有 FlashInfer 支持）；ROCm 后端都不支持，启动时会报 "
        "'No valid attention backend'"),
    "attn.nvfp4_capability": (
        "vLLM {version} keeps an nvfp4 KV cache only on compute capability 10.x (B200, B300, GB200/GB300: "
        "FlashInfer's TRT-LLM kernels), not on {cc}; vLLM {since} adds FlashInfer's FA2 path for 8.x, 9.x and 12.x",
        "vLLM {version} 只在计算能力 10.x（B200、B300、GB200/GB300：FlashInfer 的 TRT-LLM 内核）上支持 nvfp4 KV "
        "缓存，{cc} 不支持；vLLM {since} 为 8.x、9.x 与 12.x 加入了 FlashInfer 的 FA2 路径"),
    "attn.nvfp4_model": (
        "only FlashInfer keeps an nvfp4 KV cache in vLLM {version}, and it cannot run this model (its head "
        "sizes, or full attention over image tokens: serve it text-only with --language-model-only)",
        "vLLM {version} 中只有 FlashInfer 支持 nvfp4 KV 缓存，而它无法运行该模型（头大小不支持，或需要对图像 token "
        "做全注意力：可用 --language-model-only 以纯文本方式服务）"),
    "attn.nvfp4_fa2": (
        "on compute capability {cc} vLLM {version} keeps an nvfp4 KV cache through FlashInfer's FA2 path, "
        "which refuses head size 64 and attention sinks (this model has one of them); use fp8 instead",
        "在计算能力 {cc} 上，vLLM {version} 通过 FlashInfer 的 FA2 路径保存 nvfp4 KV 缓存，该路径不接受头大小 64 与 "
        "attention sink（此模型有其一）；请改用 fp8"),
    "attn.not_cuda": (
        "kvcalc does not size a forced {backend} on this GPU (on AMD GPUs it reads TRITON_ATTN and FLEX_ATTENTION "
        "as the release's own choice, whose figures come from public ROCm starts): remove the flag, or choose "
        "TRITON_ATTN",
        "kvcalc 不估算在这张 GPU 上强制指定的 {backend}（在 AMD GPU 上，它把 TRITON_ATTN 和 FLEX_ATTENTION 按版本自己的选择计算，"
        "其数值来自公开的 ROCm 启动日志）：请去掉该参数，或选择 TRITON_ATTN"),
    "attn.mla": (
        "an MLA model takes its block size from its attention backend, and kvcalc sizes only the one the release "
        "picks for it ({backend} is not an MLA backend anyway): remove the flag",
        "MLA 模型的块大小取决于它的注意力后端，kvcalc 只按版本为它选择的后端估算（{backend} 本就不是 MLA 后端）：请去掉该参数"),
    "attn.capability": (
        "vLLM refuses {backend} on compute capability {cc}: it needs {need} or more. Choose another backend, or "
        "leave the choice to vLLM",
        "vLLM 在计算能力 {cc} 上不接受 {backend}：它需要 {need} 或更高。请换一个后端，或交给 vLLM 自行选择"),
    "attn.capability_range": (
        "vLLM refuses {backend} on compute capability {cc}: this release takes {low} to {high}. Choose another "
        "backend, or leave the choice to vLLM",
        "vLLM 在计算能力 {cc} 上不接受 {backend}：该版本只支持 {low} 到 {high}。请换一个后端，或交给 vLLM 自行选择"),
    "attn.fa4": (
        "on compute capability {cc} vLLM's {backend} runs FlashAttention 4, whose pages (128 tokens for 256-wide "
        "heads) and KV-cache types change between releases; kvcalc does not size it: leave the choice to vLLM "
        "(FlashInfer on these GPUs) or choose TRITON_ATTN",
        "在计算能力 {cc} 上，vLLM 的 {backend} 运行 FlashAttention 4，其页大小（256 宽的 head 为 128 个 token）与 KV "
        "缓存类型随版本变化；kvcalc 不估算它：请交给 vLLM 自行选择（这些 GPU 上为 FlashInfer）或选择 TRITON_ATTN"),
    "attn.head_size_fa": (
        "vLLM refuses {backend} for head size {heads}: FlashAttention takes multiples of 8 up to 256 here. "
        "Choose TRITON_ATTN, or leave the choice to vLLM",
        "vLLM 不接受 head 大小为 {heads} 的 {backend}：这里 FlashAttention 只支持不超过 256 的 8 的倍数。"
        "请选择 TRITON_ATTN，或交给 vLLM 自行选择"),
    "attn.head_size_flashinfer": (
        "vLLM refuses {backend} for head size {heads}: kvcalc knows FlashInfer to take {allowed}. Choose "
        "TRITON_ATTN, or leave the choice to vLLM",
        "vLLM 不接受 head 大小为 {heads} 的 {backend}：kvcalc 所知 FlashInfer 支持 {allowed}。请选择 TRITON_ATTN，"
        "或交给 vLLM 自行选择"),
    "attn.mm_prefix": (
        "vLLM refuses {backend} for this model: with multimodal input it attends fully over image tokens, "
        "which {backend} cannot do ('partial multimodal token full attention not supported'). Choose "
        "TRITON_ATTN, or leave the choice to vLLM; from vLLM {since} a text-only run (--language-model-only) "
        "takes it",
        "vLLM 不接受此模型使用 {backend}：有多模态输入时它要对图像 token 做完整注意力，而 {backend} 做不到"
        "（'partial multimodal token full attention not supported'）。请选择 TRITON_ATTN，或交给 vLLM 自行选择；"
        "从 vLLM {since} 起，纯文本运行（--language-model-only）可以使用它"),
    "attn.head_size_triton": (
        "vLLM refuses {backend} for head size {heads}: Triton attention takes 32 or more. Leave the choice "
        "to vLLM",
        "vLLM 不接受 head 大小为 {heads} 的 {backend}：Triton 注意力需要 32 或更大。请交给 vLLM 自行选择"),
    "attn.fa_fp8": (
        "vLLM's FlashAttention keeps an fp8 KV cache only with FlashAttention 3 (Hopper), not on compute "
        "capability {cc}: choose FLASHINFER (or TRITON_ATTN from compute capability 8.9), or a 16-bit KV cache",
        "vLLM 的 FlashAttention 只在 FlashAttention 3（Hopper）上支持 fp8 KV 缓存，计算能力 {cc} 上不行："
        "请选择 FLASHINFER（计算能力 8.9 起也可选 TRITON_ATTN），或使用 16 位 KV 缓存"),
    "attn.fa_e5m2": (
        "vLLM's FlashAttention keeps no {kv} KV cache (FlashAttention 3 takes fp8 as e4m3 only): choose "
        "FLASHINFER or TRITON_ATTN, or --kv-cache-dtype fp8",
        "vLLM 的 FlashAttention 不支持 {kv} KV 缓存（FlashAttention 3 只接受 e4m3 格式的 fp8）：请选择 FLASHINFER "
        "或 TRITON_ATTN，或使用 --kv-cache-dtype fp8"),
    "attn.triton_fp8": (
        "vLLM {since} and later refuse TRITON_ATTN with an {kv} KV cache on compute capability {cc} ('FP8 KV cache "
        "is not supported by the Triton attention backend'): Triton's fp8 needs 8.9 or more. Use a 16-bit KV "
        "cache (--kv-cache-dtype auto keeps the model's type), or leave the backend to vLLM where it picks FlashInfer",
        "vLLM {since} 及以后版本在计算能力 {cc} 上拒绝使用 {kv} KV 缓存的 TRITON_ATTN（“FP8 KV cache is not supported "
        "by the Triton attention backend”）：Triton 的 fp8 需要 8.9 或更高。请使用 16 位 KV 缓存（--kv-cache-dtype auto "
        "保留模型自身的类型），或在 vLLM 会选 FlashInfer 的情况下不强制指定后端"),
    "attn.triton_fp8_auto": (
        "vLLM {since} and later refuse an {kv} KV cache here ('FP8 KV cache is not supported by the Triton attention "
        "backend'): on compute capability {cc} FlashAttention keeps fp8 only on Hopper and FlashInfer does not take "
        "this GPU or model, so the attention runs on TRITON_ATTN, whose fp8 needs 8.9 or more. Use a 16-bit KV "
        "cache (--kv-cache-dtype auto keeps the model's type)",
        "vLLM {since} 及以后版本在这里拒绝 {kv} KV 缓存（“FP8 KV cache is not supported by the Triton attention "
        "backend”）：在计算能力 {cc} 上，FlashAttention 只在 Hopper 上支持 fp8，FlashInfer 不接受这块 GPU 或这个模型，"
        "于是注意力由 TRITON_ATTN 运行，而它的 fp8 需要 8.9 或更高。请使用 16 位 KV 缓存（--kv-cache-dtype auto "
        "保留模型自身的类型）"),
    "attn.sinks": (
        "this model's attention sinks (gpt-oss) rule out {backend} on compute capability {cc}; vLLM refuses to "
        "start. Choose TRITON_ATTN, or leave the choice to vLLM",
        "该模型的 attention sink（gpt-oss）使 {backend} 无法在计算能力 {cc} 上使用，vLLM 会拒绝启动。"
        "请选择 TRITON_ATTN，或交给 vLLM 自行选择"),
    "attn.kv_dtype": (
        "kvcalc does not size {backend} with a {kv} KV cache (the backend may refuse it, and the cache's layout "
        "differs): choose a 16-bit or fp8 cache, another backend, or leave the choice to vLLM",
        "kvcalc 不估算使用 {kv} KV 缓存的 {backend}（该后端可能不接受，缓存布局也不同）：请选择 16 位或 fp8 缓存、"
        "其他后端，或交给 vLLM 自行选择"),
    "attn.auto_release": (
        "auto needs vLLM {since} or newer ({pr}); {version} takes only a backend name, so leave the flag out "
        "for the release's own choice",
        "auto 需要 vLLM {since} 或更高版本（{pr}）；{version} 只接受后端名称，想用版本自己的选择请去掉该参数"),
    "flags.config_file": (
        "vLLM reads this YAML file's flags, which kvcalc cannot see: write them on the command line instead",
        "vLLM 会读取这个 YAML 文件里的参数，而 kvcalc 看不到它：请把这些参数直接写在命令行上"),
    "flags.kv_skip_layers": (
        "keeps some layers' KV cache in 16 bits beside the --kv-cache-dtype of the others; kvcalc sizes one cache "
        "type for every attention layer",
        "会让部分层的 KV 缓存保持 16 位，其余层用 --kv-cache-dtype；kvcalc 对所有注意力层只按一种缓存类型估算"),
    "flags.state_cache": (
        "changes how vLLM pages or stores the recurrent state of Mamba/GDN (or replayed sliding-window) layers; "
        "kvcalc sizes that state as the release does by default (--mamba-ssm-cache-dtype is read)",
        "会改变 vLLM 对 Mamba/GDN（或重放的滑动窗口）层递归状态的分页或存储方式；kvcalc 按该版本的默认方式估算这些状态"
        "（会读取 --mamba-ssm-cache-dtype）"),
    "flags.microbatching": (
        "dual-batch overlap splits each step into micro-batches with buffers of their own; not modelled",
        "双批次重叠会把每一步拆成带有各自缓冲区的微批次；尚未建模"),
    "flags.weight_offload": (
        "offloads chosen weights to host memory with prefetching; kvcalc models only --cpu-offload-gb",
        "会把指定的权重卸载到主机内存并预取；kvcalc 只建模 --cpu-offload-gb"),
    "flags.multimodal_profile": (
        "changes the multimodal work vLLM profiles or the GPU memory it sets aside for the front end; kvcalc "
        "profiles the encoder as the release does by default",
        "会改变 vLLM 预估的多模态计算，或它为前端预留的 GPU 显存；kvcalc 按该版本默认的方式估算编码器"),
    "flags.sampler": (
        "changes the sampler's buffers, which kvcalc sizes for vLLM's default sampling",
        "会改变采样器的缓冲区，而 kvcalc 按 vLLM 默认的采样方式估算"),
    "flags.pooling": (
        "runs the model for pooling (embeddings, classification, rewards): no sampler and a different warm-up, "
        "where kvcalc sizes text generation",
        "会以池化方式运行模型（嵌入、分类、奖励）：没有采样器，预热也不同，而 kvcalc 估算的是文本生成"),
    "flags.model_impl": (
        "another implementation of the model (the Transformers backend) builds and profiles it differently; kvcalc "
        "sizes vLLM's own",
        "换用其他实现（Transformers 后端）时，模型的构建与预估方式都不同；kvcalc 估算的是 vLLM 自己的实现"),
    "flags.context_parallel": (
        "prefill context parallelism, or a KV interleave other than 1, changes how tokens spread over the GPUs' "
        "caches; kvcalc models --decode-context-parallel-size with the default interleave",
        "预填充上下文并行，或不为 1 的 KV 交错大小，会改变 token 在各 GPU 缓存间的分布；kvcalc 只按默认交错建模 "
        "--decode-context-parallel-size"),
    "flags.rope_override": (
        "sets the model's RoPE, which can change its context length: give it as --hf-overrides "
        "'{{\"rope_scaling\": …}}', which kvcalc reads",
        "会设置模型的 RoPE，可能改变其上下文长度：请写成 --hf-overrides '{{\"rope_scaling\": …}}'，kvcalc 会读取它"),
    "flags.quantization_config": (
        "a per-layer quantization config is not read: give the format with --quantization (or the checkpoint's "
        "own config)",
        "不读取逐层的量化配置：请用 --quantization 指定格式（或使用检查点自带的配置）"),
    "flags.not_sized": (
        "changes what vLLM builds or keeps on the GPU in a way kvcalc does not size",
        "会以 kvcalc 不估算的方式改变 vLLM 在 GPU 上构建或保留的内容"),
    "flags.sleep_mode": (
        "sleep mode allocates through its own pool, which vLLM counts differently; not modelled",
        "休眠模式通过自己的内存池分配，vLLM 的计数方式不同；尚未建模"),
    "flags.dtype": (
        "only 16-bit --dtype values are modelled (auto, half, float16, bfloat16); float32 doubles the weights",
        "只建模 16 位的 --dtype 取值（auto、half、float16、bfloat16）；float32 会使权重翻倍"),
    "flags.load_format": (
        "kvcalc reads the checkpoint's format from its config.json (a checkpoint saved in bitsandbytes is sized as "
        "such); quantizing while loading and GGUF files are not modelled",
        "kvcalc 从 config.json 读取检查点的格式（以 bitsandbytes 保存的检查点按此估算）；加载时量化与 GGUF 文件尚未建模"),
    "command.none": (
        "no vLLM server command found: paste a line such as vllm serve Qwen/Qwen3-8B --max-model-len 32768, or "
        "an LLM(...) call",
        "没有找到 vLLM 服务命令：请粘贴类似 vllm serve Qwen/Qwen3-8B --max-model-len 32768 的命令，或一个 LLM(...) 调用"),
    "command.model_tag_ignored": (
        "python -m vllm.entrypoints.openai.api_server (and the vllm/vllm-openai image before v0.11.1, which runs "
        "it) reads the model from --model only: it drops {word} and serves {default}; write --model {word}",
        "python -m vllm.entrypoints.openai.api_server（以及运行它的 v0.11.1 之前的 vllm/vllm-openai 镜像）只从 --model "
        "读取模型：它丢弃 {word}，实际运行 {default}；请写成 --model {word}"),
    "command.model_flag_refused": (
        "vllm serve of v0.10.0 to v0.11.0 refuses the --model flag (ValueError: 'you should provide the model as "
        "a positional argument'): write vllm serve {model} …, or --model={model}",
        "v0.10.0 到 v0.11.0 的 vllm serve 拒绝 --model 参数（ValueError：“you should provide the model as a "
        "positional argument”）：请写成 vllm serve {model} …，或 --model={model}"),
    "command.model_twice": (
        "from v0.11.1 vllm serve moves --model {model} to the front as the model, which leaves {word} over: it "
        "stops with 'unrecognized arguments: {word}'; name the model once",
        "自 v0.11.1 起 vllm serve 把 --model {model} 移到最前面当作模型，于是多出 {word}：它以“unrecognized "
        "arguments: {word}”停止；模型只写一次"),
    "command.model_not_first": (
        "from v0.17.0 vllm serve stops when --served-model-name is given and the line does not start with the "
        "model (ValueError: '`model` should be provided as the first positional argument'): write vllm serve "
        "{model} … with the model first",
        "自 v0.17.0 起，给出 --served-model-name 而命令不以模型开头时，vllm serve 会停止（ValueError：“`model` should "
        "be provided as the first positional argument”）：请把模型放在最前面，写成 vllm serve {model} …"),
    "command.model_variable": (
        "the model is {word}, a variable the pasted text does not assign, so which model vLLM serves is not known",
        "模型是 {word}，一个粘贴的文本中没有赋值的变量，因此无法得知 vLLM 实际运行哪个模型"),
    "command.llm_unreadable": (
        "an LLM( call was found but its arguments do not read as Python: paste the whole call, from LLM( to "
        "its closing parenthesis",
        "找到了 LLM( 调用，但它的参数不是合法的 Python：请粘贴完整的调用，从 LLM( 到对应的右括号"),
    "command.llm_intricate": (
        "the LLM( call is too intricate to read safely: its brackets nest more than {depth} deep or it holds "
        "more than {steps} names, operators and chained calls; kvcalc reads literal values only, so give each "
        "argument's value itself",
        "LLM( 调用过于复杂，无法安全读取：括号嵌套超过 {depth} 层，或名称、运算符与链式调用超过 {steps} 个；"
        "kvcalc 只读取字面量，请直接给出每个参数的值"),
    "command.llm_value": (
        "its value is a Python expression, not a literal, and kvcalc does not run code: give the value itself",
        "它的值是 Python 表达式而不是字面量，kvcalc 不会执行代码：请直接给出这个值"),
    "command.too_long": (
        "the command is longer than {limit:,} characters; paste the vllm serve line alone",
        "命令超过 {limit:,} 个字符；请只粘贴 vllm serve 那一行"),
    "command.quotes": (
        "the command's quotes do not close ({error}); check the quoting of JSON values such as "
        "--speculative-config",
        "命令中的引号没有闭合（{error}）；请检查 --speculative-config 等 JSON 值的引号"),
    "settings.between": (
        "must be between {lo:,} and {hi:,}, got {value:,}",
        "须在 {lo:,} 到 {hi:,} 之间，收到的是 {value:,}"),
    "settings.dcp_divides_tp": (
        "must divide --tensor-parallel-size ({tp}); vLLM splits the TP group",
        "须能整除 --tensor-parallel-size（{tp}）；vLLM 会把 TP 组再切分"),
    "settings.util_number": (
        "must be a number in (0, 1], got {value}",
        "须为 (0, 1] 区间内的数，收到的是 {value}"),
    "settings.util_range": (
        "must be greater than 0 and at most 1 (a fraction of the GPU), got {value}",
        "须大于 0 且不超过 1（占 GPU 显存的比例），收到的是 {value}"),
    "settings.mnbt_below_mns": (
        "({mnbt:,}) must be greater than or equal to --max-num-seqs ({mns:,}), as vLLM's scheduler requires",
        "（{mnbt:,}）不能小于 --max-num-seqs（{mns:,}），这是 vLLM 调度器的要求"),
    "settings.block_size_multiple": (
        "{value} is not accepted; vLLM takes {allowed} or any multiple of 16",
        "不接受 {value}；vLLM 可用的取值：{allowed}，或任意 16 的倍数"),
    "settings.hf_overrides": (
        "must be a JSON object of config.json keys, such as {{\"max_position_embeddings\": 131072}}; got {value}",
        "须为由 config.json 键组成的 JSON 对象，如 {{\"max_position_embeddings\": 131072}}；收到的是 {value}"),
    "note.hf_overrides_shapes": (
        "--hf-overrides changes the model's shapes ({keys}), so the weights are counted from the overridden config's "
        "parameters, not from the checkpoint's size",
        "--hf-overrides 改变了模型的形状（{keys}），因此权重按覆盖后的配置的参数计算，而不是按检查点的大小"),
    "settings.optimization_level": (
        "must be an optimization level from 0 to 3, got {value}",
        "须为 0 到 3 的优化级别，收到的是 {value}"),
    "settings.optimization_level_release": (
        "-O{level} is an optimization level from vLLM {since}; {version} reads -O{level} as a compilation "
        "level, which kvcalc does not model: choose a newer release, --enforce-eager for no compilation, or "
        "leave the flag out (-O3 is that release's default)",
        "-O{level} 是 vLLM {since} 起的优化级别；{version} 把 -O{level} 当作编译级别，kvcalc 未建模：请选择更新的版本，"
        "不编译请用 --enforce-eager，或去掉该参数（-O3 是该版本的默认值）"),
    "settings.attention_backend": (
        "{value} is not an attention backend kvcalc sizes: it sizes {allowed}, or auto (vLLM 0.18+) for the "
        "release's own choice",
        "{value} 不是 kvcalc 能估算的注意力后端：它支持 {allowed}，或 auto（vLLM 0.18+，由版本自行选择）"),
    "settings.not_accepted": (
        "{value} is not accepted; vLLM takes {allowed}",
        "不接受 {value}；vLLM 可用的取值：{allowed}"),
    "settings.quick_reduce": (
        "must be one of {levels} (VLLM_ROCM_QUICK_REDUCE_QUANTIZATION), got {value}",
        "须为 {levels} 之一（VLLM_ROCM_QUICK_REDUCE_QUANTIZATION），收到的是 {value}"),
    "settings.compile_cache": (
        "must be cold (a first start: the torch.compile cache is empty) or warm (a restart that "
        "loads the compiled graphs), got {value}",
        "须为 cold（首次启动：torch.compile 缓存为空）或 warm（重启并加载已编译的图），收到的是 {value}"),
    "settings.kv_dtype": (
        "{value} is not a vLLM KV cache dtype; choose one of {allowed}",
        "{value} 不是 vLLM 的 KV cache 数据类型；可选：{allowed}"),
    "settings.weights_name": (
        "must be a weight format name such as auto, bf16, fp8 or awq, got {value}",
        "须为权重格式名，如 auto、bf16、fp8 或 awq，收到的是 {value}"),
    "settings.weights_format": (
        "{value} is not a known weight format; choose {allowed}",
        "{value} 不是已知的权重格式；可选：{allowed}"),
    "settings.bool": (
        "must be true or false, got {value}",
        "须为 true 或 false，收到的是 {value}"),
    "settings.needs_release": (
        "needs vLLM {since} or newer ({pr}); you chose {version}. Choose a newer release, or use "
        "--skip-mm-profiling, which leaves out the towers' warm-up but not their weights",
        "需要 vLLM {since} 或更高版本（{pr}）；当前选择的是 {version}。请选择更新的版本，"
        "或改用 --skip-mm-profiling：它省去视觉/音频塔的预热，但不省去其权重"),
    "settings.flag_needs_release": (
        "needs vLLM {since} or newer ({pr}); you chose {version}",
        "需要 vLLM {since} 或更高版本（{pr}）；当前选择的是 {version}"),
    "settings.extensible_overridden": (
        "vLLM refuses --enable-extensible-kv-cache with {flag}: the extensible cache is sized from memory measured "
        "after warm-up, which {flag} overrides ('enable_extensible_kv_cache: it sizes the KV cache from measured "
        "memory'). Drop one of the two",
        "vLLM 不接受 --enable-extensible-kv-cache 与 {flag} 同时使用：可扩展缓存按预热后实测的显存确定大小，而 {flag} "
        "会覆盖它（'enable_extensible_kv_cache: it sizes the KV cache from measured memory'）。请去掉其中一个"),
    "settings.extensible_rocm_connector": (
        "vLLM refuses --enable-extensible-kv-cache with a KV connector on ROCm: UCX and RDMA cannot register "
        "driver-mapped memory there, which NIXL needs. Drop the flag (vLLM then sizes the pool as before v0.34)",
        "vLLM 在 ROCm 上不接受 --enable-extensible-kv-cache 与 KV 连接器同时使用：那里的 UCX 与 RDMA 无法注册驱动映射的"
        "显存，而 NIXL 需要这样做。请去掉该参数（vLLM 将按 v0.34 之前的方式确定缓存池大小）"),
    "settings.v1_runner_removed": (
        "vLLM {version} has no V1 model runner (removed in {since}): VLLM_USE_V2_MODEL_RUNNER=0 stops the start. "
        "Leave the variable unset, or choose an earlier release to size the V1 runner",
        "vLLM {version} 没有 V1 model runner（{since} 移除）：VLLM_USE_V2_MODEL_RUNNER=0 会使启动失败。"
        "请不设置该变量，或选择更早的版本来计算 V1 runner"),
    "settings.v2_runner_spec": (
        "vLLM {version} refuses VLLM_USE_V2_MODEL_RUNNER=1 with the speculative method {method}: model "
        "runner V2 does not run it in that release. Unset the variable (vLLM then keeps the V1 runner) "
        "or choose a method V2 runs",
        "vLLM {version} 不接受 VLLM_USE_V2_MODEL_RUNNER=1 与投机解码方法 {method} 同时使用：该版本的 model runner V2 "
        "不支持它。请取消该变量（vLLM 会继续使用 V1 runner），或换用 V2 支持的方法"),
    "settings.capture_sizes": (
        "must be a list of whole numbers from 1 up (e.g. 1 2 4 8 16), got {value}",
        "须为从 1 起的整数列表（例如 1 2 4 8 16），收到的是 {value}"),
    "settings.mm_limits": (
        "must give items per prompt for {modalities}, as JSON ('{{\"image\": 2, \"video\": 0}}') or "
        "image=2,video=0, each a whole number from 0 (or an object with a \"count\"), got {value}",
        "须按模态（{modalities}）给出每个提示的条数，写成 JSON（'{{\"image\": 2, \"video\": 0}}'）或 "
        "image=2,video=0，每项为从 0 起的整数（或带 \"count\" 的对象），收到的是 {value}"),
    "settings.mm_processor": (
        "must be a JSON object of the processor's options, e.g. '{{\"max_pixels\": 1003520}}', with "
        "max_pixels (or size.longest_edge) a whole number of pixels, got {value}",
        "须为处理器选项的 JSON 对象，例如 '{{\"max_pixels\": 1003520}}'，其中 max_pixels（或 size.longest_edge）"
        "为整数像素数，收到的是 {value}"),
    "settings.capture_max_mismatch": (
        "{value} must equal the largest of --cudagraph-capture-sizes ({largest}), as vLLM requires when both are given",
        "{value} 须等于 --cudagraph-capture-sizes 中的最大值（{largest}）：两者同时给出时 vLLM 要求一致"),
    "settings.entrypoint": (
        "must be 'serve' (vllm serve) or 'llm' (the LLM class), got {value}",
        "须为 'serve'（vllm serve）或 'llm'（LLM 类），收到的是 {value}"),
    "settings.spec_method": (
        "method {value} is not one kvcalc models; use mtp (or a model-specific *_mtp), eagle, eagle3, "
        "draft_model, ngram, ngram_gpu, suffix or medusa",
        "kvcalc 不支持 method {value}；请用 mtp（或模型专属的 *_mtp）、eagle、eagle3、draft_model、"
        "ngram、ngram_gpu、suffix 或 medusa"),
    "settings.draft_config_invalid": (
        "the drafter's config.json cannot be read: {problem}",
        "无法读取草稿模型的 config.json：{problem}"),
    "settings.draft_config": (
        "draft_config must be the draft model's config.json object, got {got}",
        "draft_config 须为草稿模型的 config.json 对象，收到的是 {got}"),
    "settings.max_len_over_yarn": (
        "{value:,} exceeds the model's maximum of {limit:,} tokens: from v0.30 vLLM takes a YaRN config's "
        "max_position_embeddings as already scaled (it multiplied by the factor before: {scaled:,}), so "
        "it refuses this unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; or raise max_position_embeddings in "
        "config.json (--hf-overrides) to the length YaRN gives",
        "{value:,} 超过了模型的上限 {limit:,} tokens：从 v0.30 起 vLLM 把 YaRN 配置中的 max_position_embeddings "
        "视为已放大的长度（此前会乘以 factor：{scaled:,}），所以除非设置 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1，否则会拒绝启动；"
        "也可以在 config.json 中（--hf-overrides）把 max_position_embeddings 调到 YaRN 给出的长度"),
    "settings.sliding_window_rope": (
        "vLLM {version} refuses --disable-sliding-window for a model whose config sets rope_scaling of type "
        "{kind} (NotImplementedError 'Disabling sliding window is not supported for models with "
        "rope_scaling'; only su, longrope and llama3 pass, and Gemma 3). Choose vLLM {since} or newer, where the "
        "check is gone, or keep the sliding window",
        "vLLM {version} 对 config 中设置了 {kind} 类型 rope_scaling 的模型拒绝 --disable-sliding-window"
        "（NotImplementedError 'Disabling sliding window is not supported for models with rope_scaling'；只有 su、"
        "longrope、llama3 以及 Gemma 3 可以通过）。请选择 vLLM {since} 或更高版本（该检查已删除），或保留滑动窗口"),
    "settings.kv_connector": (
        "kvcalc sizes the KV connector {allowed} only, not {value}: a connector that stages or offloads blocks "
        "(LMCache, the offloading or P2P NCCL connectors) allocates memory kvcalc does not size. Leave "
        "--kv-transfer-config out for the pool vLLM would build without it",
        "kvcalc 只估算 KV connector {allowed}，不支持 {value}：会暂存或卸载块的 connector（LMCache、offloading 或 P2P NCCL "
        "connector）会分配 kvcalc 不估算的显存。去掉 --kv-transfer-config 可得到不使用它时 vLLM 会建立的缓存池"),
    "settings.kv_connector_hybrid": (
        "with a KV connector vLLM can turn the hybrid KV cache manager off, which changes how this model's "
        "sliding-window, chunked or state layers take blocks, by connector and release; kvcalc does not size "
        "that yet. It sizes NixlConnector for models whose layers all keep the same kind of cache",
        "使用 KV connector 时，vLLM 可能会关闭混合 KV 缓存管理器（因 connector 和版本而异），从而改变该模型滑动窗口、分块"
        "或状态层占用块的方式；kvcalc 暂不估算这种情况。对于所有层缓存类型相同的模型，kvcalc 可以估算 NixlConnector"),
    "settings.max_len_over_window": (
        "{value} is past the model's sliding window of {window:,} tokens, where --disable-sliding-window caps the "
        "context: vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. Ask for {window:,} or less, or keep the "
        "sliding window",
        "{value} 超过了模型的滑动窗口 {window:,} 个 token，而 --disable-sliding-window 会把上下文限制在窗口以内："
        "除非设置 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1，否则 vLLM 会拒绝。请设为 {window:,} 或更小，或保留滑动窗口"),
    "settings.max_len_over": (
        "{value:,} exceeds the model's maximum of {limit:,} tokens "
        "(vLLM refuses this unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1)",
        "{value:,} 超过了模型的上限 {limit:,} tokens（除非设置 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1，"
        "否则 vLLM 会拒绝启动）"),
    "list.semicolon": ("{first}; {then}", "{first}；{then}"),
    "settings.problem": ("{flag}: {problem}", "{flag}：{problem}"),
    # ---- requests at the JSON boundary (api.py, plan.py)
    "request.number_range": (
        "must be a number above {low:g} and at most {high:g}, got {value}",
        "须为大于 {low:g} 且不超过 {high:g} 的数，收到的是 {value}"),
    "request.settings_object": (
        "must be an object of vLLM flags, got {got}",
        "须为由 vLLM 参数组成的对象，收到的是 {got}"),
    "request.unknown_setting": ("is not a setting kvcalc knows", "不是 kvcalc 认识的设置项"),
    "request.speculative_json": (
        "must be vLLM's JSON, e.g. {{\"method\": \"eagle3\", \"model\": \"…\", \"num_speculative_tokens\": 3}} "
        "({error})",
        "须为 vLLM 的 JSON，例如 {{\"method\": \"eagle3\", \"model\": \"…\", \"num_speculative_tokens\": 3}}（{error}）"),
    "request.speculative_object": (
        "must be an object with a 'method' string",
        "须为带有 'method' 字符串的对象"),
    "request.model_id": (
        "must be a Hugging Face id such as Qwen/Qwen3-8B",
        "须为 Hugging Face 模型 id，如 Qwen/Qwen3-8B"),
    "request.model_missing": (
        "choose a model from the catalog or give its config.json",
        "请从模型目录中选择，或提供其 config.json"),
    "request.model_not_in_catalog": (
        "model {model} is not in the catalog; load its config.json from Hugging Face (the page and "
        "`kvcalc estimate --model` do this)",
        "模型 {model} 不在模型目录中；请从 Hugging Face 加载它的 config.json（页面和 `kvcalc estimate --model` "
        "都会这样做）"),
    "request.gpu_key": (
        "must be a GPU key or name such as h100",
        "须为 GPU 的键名或名称，如 h100"),
    "request.gib_number": ("must be a number of GiB, got {value}", "须为 GiB 数值，收到的是 {value}"),
    "request.positive_int": (
        "must be a whole number of at least 1, got {value}",
        "须为不小于 1 的整数，收到的是 {value}"),
    "request.not_object": (
        "must be a JSON object with an 'op'",
        "须为带有 'op' 的 JSON 对象"),
    "request.logs_list": (
        "must be a list of log entries (objects), as in data/vllm_logs.json",
        "须为日志条目（对象）的列表，格式同 data/vllm_logs.json"),
    "request.unknown_op": (
        "unknown operation {op}; use estimate, catalog, validate, plan, levers, parse_log or compare_log",
        "未知操作 {op}；可用：estimate、catalog、validate、plan、levers、parse_log 或 compare_log"),
    "request.too_deep": (
        "is nested too deeply to be a config or settings",
        "嵌套层级过深，不可能是 config 或设置"),
    "plan.at_least_one_got": ("must be at least 1, got {value}", "至少为 1，收到的是 {value}"),
    "plan.requests_and_tokens": (
        "requests and tokens must be at least 1",
        "请求数和 token 数都至少为 1"),
    "plan.at_least_one": ("must be at least 1", "至少为 1"),
    "model.page_sizes": (
        "vLLM cannot unify this model's page sizes ({page:,} B does not divide {top:,} B); it would "
        "refuse to start with this layout",
        "vLLM 无法统一该模型的页大小（{page:,} B 不能整除 {top:,} B）；这种布局下它会拒绝启动"),
    # ---- pasted logs (api.py compare_log)
    "log.host_pool": (
        "this start keeps part of its KV cache in host memory (HiSparse: 'GPU + host KV cache size', v0.32+), "
        "which kvcalc does not model, so its token count cannot be set beside a GPU pool",
        "这次启动把部分 KV cache 放在主机内存中（HiSparse：'GPU + host KV cache size'，v0.32+），kvcalc 尚未建模，"
        "因此无法把它的 token 数与 GPU 缓存池对照"),
    "log.util_error": (
        "this start was refused before any sizing: the GPU had {free:.2f} of {total:.2f} GiB free, and "
        "--gpu-memory-utilization {util} asks for {wanted:.2f} GiB. Another process (or a previous vLLM) holds "
        "the rest: free the GPU, or ask for at most {most} of it",
        "这次启动在计算缓存之前就被拒绝了：GPU 总共 {total:.2f} GiB，只有 {free:.2f} GiB 空闲，而 "
        "--gpu-memory-utilization {util} 需要 {wanted:.2f} GiB。其余显存被别的进程（或之前的 vLLM）占用："
        "请释放 GPU，或把比例设为不超过 {most}"),
    "log.nothing_usable": (
        "nothing usable in this text: kvcalc needs at least the 'Available KV cache memory: … GiB' line "
        "of a vLLM startup log",
        "这段文字里没有可用的内容：kvcalc 至少需要 vLLM 启动日志中的 'Available KV cache memory: … GiB' 这一行"),
    "log.model_not_in_catalog": (
        "the log names {model}, which is not in the catalog: choose the model or load its config by id",
        "日志中的模型 {model} 不在模型目录中：请选择模型，或按 id 加载其 config"),
    "log.no_model": (
        "the log does not name the model: choose it",
        "日志没有写明模型：请选择模型"),
    "log.no_gpu": (
        "the log does not say which GPU ran it: choose the GPU",
        "日志没有写明使用的 GPU：请选择 GPU"),
    # ---- the validation table (validate.py)
    "validate.no_config": (
        "model {model} has no inline config and is not in the catalog",
        "模型 {model} 既没有内嵌 config，也不在模型目录中"),
    "validate.no_gpu": (
        "the entry names neither a GPU nor its total memory",
        "该条目既没有给出 GPU，也没有给出其总显存"),
    "validate.documented": (
        "documented in the data: {reason}",
        "数据中已注明：{reason}"),
    "validate.no_release": (
        "the log does not say which vLLM release ran, and the budget depends on it; only the pool "
        "from its memory is checked",
        "日志没有写明运行的 vLLM 版本，而显存预算取决于版本；因此只核对按日志显存算出的 KV 池"),
    # ---- likely causes when a log differs from the prediction (compare.py)
    "cause.weights": (
        "the weights took {theirs:.2f} GiB in your log against {ours:.2f} GiB estimated: another "
        "checkpoint or quantization than the one selected?",
        "日志中权重占 {theirs:.2f} GiB，估算为 {ours:.2f} GiB：是否用了与所选不同的权重或量化方式？"),
    "cause.activation_higher": (
        "activation peak {diff:.2f} GiB higher than our estimate: a larger --max-num-batched-tokens "
        "or --max-num-seqs?",
        "激活峰值比估算高 {diff:.2f} GiB：是否用了更大的 --max-num-batched-tokens 或 --max-num-seqs？"),
    "cause.activation_lower": (
        "activation peak {diff:.2f} GiB lower than our estimate: a build with FlashInfer sampling "
        "kernels, or a smaller --max-num-seqs?",
        "激活峰值比估算低 {diff:.2f} GiB：是否是启用了 FlashInfer 采样内核的构建，或 --max-num-seqs 更小？"),
    "cause.non_torch": (
        "non-torch memory {theirs:.2f} GiB against {ours:.2f} GiB estimated (NCCL, other processes "
        "on the GPU)",
        "非 torch 显存 {theirs:.2f} GiB，估算为 {ours:.2f} GiB（NCCL，或 GPU 上还有其他进程）"),
    "cause.non_torch_table_copy": (
        "non-torch memory {theirs:.2f} GiB against {ours:.2f} GiB estimated: the excess is about one copy of "
        "the {table:.2f} GiB embedding table the compiled graph looks up: the compile's freed copy, which stays "
        "charged in some first starts of v0.27-v0.30 when a later allocation is carved out of it (kvcalc's band "
        "allows it; a restart keeps none)",
        "非 torch 显存 {theirs:.2f} GiB，估算为 {ours:.2f} GiB：多出的部分约为一份 {table:.2f} GiB 的编译图所查嵌入表，"
        "即编译释放的那份拷贝；在 v0.27–v0.30 的部分首次启动中，之后的分配从中切走一部分，它便仍被扣除（kvcalc 的区间"
        "容许这一点；重启不会保留）"),
    "cause.cuda_graphs": (
        "vLLM estimated {theirs:.2f} GiB of CUDA graphs, we assumed {ours:.2f} GiB",
        "vLLM 估算 CUDA graph 占 {theirs:.2f} GiB，我们假设为 {ours:.2f} GiB"),
    "cause.kv_dtype": (
        "your run used {kv} KV cache",
        "你的运行使用了 {kv} KV cache"),
    "cause.first_start": (
        "this log compiled the model (a first start, empty torch.compile cache): kvcalc counts "
        "{gib:.2f} GiB for that (up to {high:.2f}); a restart that reuses ~/.cache/vllm keeps that "
        "much more for the KV cache",
        "该日志编译了模型（首次启动，torch.compile 缓存为空）：kvcalc 为此计入 {gib:.2f} GiB（最多 {high:.2f}）；"
        "复用 ~/.cache/vllm 的重启会把这部分留给 KV cache"),
    "cause.gpu_total": (
        "your GPU reports {theirs:.2f} GiB in total, the selected one {ours:.2f} GiB",
        "你的 GPU 报告总显存 {theirs:.2f} GiB，所选 GPU 为 {ours:.2f} GiB"),
    "cause.pool_outside_rounding": (
        "the pool from your log's memory falls outside its rounding: a setting differs (KV dtype, "
        "block size, --max-model-len, speculative decoding?)",
        "按日志显存算出的 KV 池超出了舍入误差范围：有设置不同（KV 数据类型、块大小、--max-model-len、投机解码？）"),
    # ---- the calculation (engine.py)
    "dsv4.kv_auto": (
        "vLLM {version} stops: DeepSeek-V4 keeps its cache in fp8_ds_mla rows and asserts an fp8 "
        "--kv-cache-dtype, which auto becomes only from v{since}. Pass --kv-cache-dtype fp8",
        "vLLM {version} 会停止启动：DeepSeek-V4 的缓存存为 fp8_ds_mla 行，vLLM 断言 --kv-cache-dtype 为 fp8，"
        "而 auto 要到 v{since} 才会变成 fp8。请传入 --kv-cache-dtype fp8"),
    "dsv4.kv_dtype": (
        "DeepSeek-V4 keeps its cache in fp8_ds_mla rows: vLLM takes --kv-cache-dtype fp8, fp8_e4m3 or "
        "fp8_ds_mla (and auto from v0.30); {name} stops the start",
        "DeepSeek-V4 的缓存存为 fp8_ds_mla 行：vLLM 接受 --kv-cache-dtype fp8、fp8_e4m3 或 fp8_ds_mla"
        "（v0.30 起也接受 auto）；{name} 会使启动失败"),
    "dsv4.gpu": (
        "vLLM {version} runs DeepSeek-V4's attention with FlashMLA on compute capability 9.0 and 10.x{sm12}; "
        "this GPU is {capability}, where public starts stop in the profile run (DeepGEMM's hyper-connection "
        "kernel: 'Unsupported architecture'). Choose a Hopper or Blackwell GPU",
        "vLLM {version} 用 FlashMLA 在计算能力 9.0 与 10.x 上运行 DeepSeek-V4 的注意力{sm12}；"
        "该 GPU 为 {capability}，公开的启动记录在 profile 阶段就停止了（DeepGEMM 的 hyper-connection kernel："
        "'Unsupported architecture'）。请选择 Hopper 或 Blackwell GPU"),
    "dsv4.gpu_sm12": (
        ", and with FlashInfer's SM120 path on 12.x",
        "，在 12.x 上用 FlashInfer 的 SM120 路径"),
    "dsv4.gpu_sm12_later": (
        " (12.x only from v{since})",
        "（12.x 要到 v{since} 才支持）"),
    "dsv4.rocm": (
        "kvcalc does not size DeepSeek-V4 on ROCm yet: vLLM's AMD path keeps the same cache, but runs its "
        "experts, attention and profile on AITER kernels whose weights layout and workspaces kvcalc has not "
        "read",
        "kvcalc 暂不计算 ROCm 上的 DeepSeek-V4：vLLM 的 AMD 路径缓存相同，但专家、注意力与 profile 都运行在 AITER "
        "kernel 上，kvcalc 尚未读过它们的权重布局与工作区"),
    "dsv4.block_size": (
        "DeepSeek-V4 runs on 256-token blocks only: its compressor states (4 and 8 rows a page) match a "
        "256-token block's compressed entries and its attention kernels take 256 (--block-size 64 divides "
        "by zero while sizing, 128 stops with 'No common block size for 128'; larger sizes are untested). "
        "Leave --block-size out or pass 256",
        "DeepSeek-V4 只能使用 256 token 的块：它的压缩器状态（每页 4 与 8 行）与 256 token 块的压缩条目对应，"
        "注意力 kernel 也只接受 256（--block-size 64 在计算时除以零，128 会报 'No common block size for 128'；"
        "更大的值未经验证）。请不要传 --block-size，或传 256"),
    "dsv4.pipeline": (
        "vLLM {version} stops: its DeepSeek-V4 class does not support pipeline parallelism ('Pipeline "
        "parallelism is not supported for this model'), which it does from v{since}. Use "
        "--pipeline-parallel-size 1, or a newer release",
        "vLLM {version} 会停止启动：它的 DeepSeek-V4 模型类不支持流水线并行（'Pipeline parallelism is not "
        "supported for this model'），v{since} 起才支持。请使用 --pipeline-parallel-size 1，或更新的版本"),
    "dsv4.pp_empty_group": (
        "{pp} pipeline stages leave a stage without a layer of one of DeepSeek-V4's cache groups (its "
        "ratio-4 or ratio-128 layers): vLLM keeps such a group with the whole model's layers, which kvcalc "
        "does not size and from v0.29 vLLM cannot allocate. Use fewer stages",
        "{pp} 个流水线阶段会让某个阶段分不到 DeepSeek-V4 某个缓存组（压缩比 4 或 128 的层）的任何一层：vLLM 会为"
        "这样的组保留整个模型的层，kvcalc 不计算这种情况，v0.29 起 vLLM 也无法分配。请减少阶段数"),
    "dsv4.dcp": (
        "vLLM stops: every DeepSeek-V4 layer keeps a sliding window, and the KV sizing asserts 'DCP not "
        "support sliding window.'. Use --decode-context-parallel-size 1",
        "vLLM 会停止启动：DeepSeek-V4 每一层都有滑动窗口，而 KV 计算会断言 'DCP not support sliding window.'。"
        "请使用 --decode-context-parallel-size 1"),
    "dsv4.backend": (
        "kvcalc sizes DeepSeek-V4 on the attention vLLM picks for it (FlashMLA, or FlashInfer's SM120 path "
        "on 12.x), whose cache is fp8_ds_mla rows; {backend} is not modelled for it. Leave "
        "--attention-backend out",
        "kvcalc 按 vLLM 为 DeepSeek-V4 自动选择的注意力（FlashMLA，或 12.x 上 FlashInfer 的 SM120 路径）计算，"
        "其缓存为 fp8_ds_mla 行；{backend} 未建模。请不要传 --attention-backend"),
    "dsv4.spec_method": (
        "kvcalc sizes DeepSeek-V4's speculative decoding with its own MTP layer (method mtp) or its DSpark "
        "drafter (method dspark); the draft layers of {method} were not read for it",
        "kvcalc 只按 DeepSeek-V4 自带的 MTP 层（method mtp）或 DSpark 草稿模型（method dspark）计算推测解码；"
        "{method} 的草稿层尚未针对它读过"),
    "dsv4.weights": (
        "kvcalc prices DeepSeek-V4's own checkpoint (fp8 layers, MXFP4 or fp8 experts), which vLLM loads as "
        "deepseek_v4_fp8; a {value} copy was not read. Leave the weight format on auto (or fp8)",
        "kvcalc 按 DeepSeek-V4 自己的 checkpoint（fp8 层、MXFP4 或 fp8 专家）计价，vLLM 以 deepseek_v4_fp8 加载它；"
        "{value} 版本尚未读过。请把权重格式保持为 auto（或 fp8）"),
    "dsv4.cpu_offload": (
        "kvcalc does not size --cpu-offload-gb for DeepSeek-V4 yet: which of its tensors vLLM moves to host "
        "memory has not been read",
        "kvcalc 暂不计算 DeepSeek-V4 的 --cpu-offload-gb：尚未读过 vLLM 会把它的哪些张量移到主机内存"),
    "dsv4.dspark_release": (
        "vLLM {version} has no DSpark drafter: the method 'dspark' arrives in v{since}. Choose a newer release, "
        "or method mtp (DeepSeek-V4's MTP layer)",
        "vLLM {version} 没有 DSpark 草稿模型：method 'dspark' 从 v{since} 起才有。请选择更新的版本，或使用 method mtp"
        "（DeepSeek-V4 的 MTP 层）"),
    "dsv4.dspark_v1": (
        "DSpark runs on model runner V2 only: V1 has no DSpark proposer (and refuses it from v0.29). Leave the "
        "model runner on V2 or automatic",
        "DSpark 只能运行在 model runner V2 上：V1 没有 DSpark 的 proposer（v0.29 起会直接拒绝）。请把 model runner 设为 "
        "V2 或自动"),
    "dsv4.dspark_pp": (
        "vLLM stops: 'DSpark does not support pipeline parallelism.' Use --pipeline-parallel-size 1 with DSpark, "
        "or method mtp",
        "vLLM 会停止启动：'DSpark does not support pipeline parallelism.' 使用 DSpark 时请设 --pipeline-parallel-size 1，"
        "或改用 method mtp"),
    "dsv4.dspark_config": (
        "DSpark reads {field} from the checkpoint's config.json, which this config lacks (the DeepSeek-V4-Flash-0731 "
        "checkpoint has it): vLLM would stop while building the drafter",
        "DSpark 会从 checkpoint 的 config.json 读取 {field}，而该配置没有（DeepSeek-V4-Flash-0731 有）：vLLM 构建草稿模型时"
        "会停止"),
    "settings.dspark_dsv4_only": (
        "method dspark is DeepSeek-V4's drafter (vLLM builds it for DeepseekV4ForCausalLM only); choose a "
        "method this model has",
        "method dspark 是 DeepSeek-V4 的草稿模型（vLLM 只为 DeepseekV4ForCausalLM 构建它）；请选择该模型支持的方法"),
    "note.dspark_layers": (
        "DSpark adds {layers} draft layer(s), each with a 128-token window cache; its drafter runs on model "
        "runner V2",
        "DSpark 增加 {layers} 个草稿层，每层有一个 128 token 的窗口缓存；其草稿模型运行在 model runner V2 上"),
    "dsv4.fp4_indexer_gpu": (
        "vLLM keeps DeepSeek-V4's indexer keys in MXFP4 on compute capability 10.x only (B200, GB200, B300, "
        "GB300); this GPU is {capability}, where the indexer refuses it. Leave the indexer cache on fp8",
        "vLLM 只在计算能力 10.x（B200、GB200、B300、GB300）上把 DeepSeek-V4 indexer 的键存为 MXFP4；该 GPU 为 "
        "{capability}，indexer 会拒绝。请保持 indexer 缓存为 fp8"),
    "settings.fp4_indexer_dsv4_only": (
        "kvcalc sizes the MXFP4 indexer cache for DeepSeek-V4 only (its sparse-attention indexer); this model "
        "keeps no such cache it reads",
        "kvcalc 只为 DeepSeek-V4（其稀疏注意力 indexer）计算 MXFP4 indexer 缓存；该模型没有 kvcalc 读取的这种缓存"),
    "block.dsv4": (
        "vLLM sets 256-token blocks for DeepSeek-V4's sparse attention ('Setting kv cache block size to 256 "
        "for DEEPSEEK_SPARSE_SWA backend'); its windows and compressor states keep blocks of their own "
        "(64, 4 and 8 entries)",
        "vLLM 为 DeepSeek-V4 的稀疏注意力设定 256 token 的块（'Setting kv cache block size to 256 for "
        "DEEPSEEK_SPARSE_SWA backend'）；它的窗口与压缩器状态各有自己的块（64、4 与 8 个条目）"),
    "settings.mtp_without_layers": (
        "method mtp needs a checkpoint with MTP layers (num_nextn_predict_layers / mtp_num_hidden_layers)",
        "method mtp 需要带 MTP 层的权重（num_nextn_predict_layers / mtp_num_hidden_layers）"),
    "settings.weights_bytes": (
        "must be the checkpoint size in bytes, a whole number above 0",
        "须为权重文件的字节数，一个大于 0 的整数"),
    "settings.available_kv_gib": (
        "must be a positive number of GiB, as the log prints it, got {value}",
        "须为正的 GiB 数，按日志中打印的填写，收到的是 {value}"),
    "note.deprecated_quantization": (
        "this checkpoint's quantization (fbgemm_fp8) is deprecated: from v{since} vLLM starts it only with "
        "--allow-deprecated-quantization, which the command below includes",
        "该检查点的量化方式（fbgemm_fp8）已被弃用：从 v{since} 起，vLLM 只有在指定 --allow-deprecated-quantization 时才会启动它，"
        "下方命令已包含该参数"),
    "note.v0_engine_capability": (
        "vLLM {major}.{minor} runs a GPU below compute capability 8.0 on its older V0 engine, whose memory "
        "profile and block manager kvcalc does not model: the figures follow the V1 engine of v0.11 and later",
        "vLLM {major}.{minor} 在计算能力低于 8.0 的 GPU 上使用旧的 V0 引擎，kvcalc 不模拟它的内存 profile 和块管理："
        "下列数字按 v0.11 及以后的 V1 引擎计算"),
    "note.v0_engine_kv": (
        "vLLM {major}.{minor} runs this KV cache dtype on its older V0 engine (V1 held fp8 caches only on Hopper "
        "with FlashAttention 3 and on compute capability 10.0), whose memory profile and block manager kvcalc "
        "does not model: the figures follow the V1 engine of v0.11 and later",
        "vLLM {major}.{minor} 用旧的 V0 引擎运行这种 KV cache 类型（V1 只在带 FlashAttention 3 的 Hopper 和计算能力 "
        "10.0 上支持 fp8 缓存），kvcalc 不模拟它的内存 profile 和块管理：下列数字按 v0.11 及以后的 V1 引擎计算"),
    "note.v0_engine_mamba": (
        "vLLM {major}.{minor} runs models with a Mamba-style state on its older V0 engine unless VLLM_USE_V1=1, "
        "and kvcalc does not model V0's memory profile and block manager: the figures follow the V1 engine",
        "vLLM {major}.{minor} 除非设置 VLLM_USE_V1=1，否则用旧的 V0 引擎运行带 Mamba 类状态的模型，kvcalc 不模拟 V0 "
        "的内存 profile 和块管理：下列数字按 V1 引擎计算"),
    "note.breakable_cudagraphs": (
        "vLLM {major}.{minor} runs this model on breakable CUDA graphs, without torch.compile (its default for "
        "the model since v0.29): a first start compiles nothing inside the memory profile and the forward "
        "pass runs eager; VLLM_USE_BREAKABLE_CUDAGRAPH=0 would compile it, which kvcalc does not size",
        "vLLM {major}.{minor} 以可中断的 CUDA graph 运行该模型，不做 torch.compile（v0.29 起对该模型的默认做法）："
        "首次启动时内存 profile 里没有编译，前向按 eager 计算；设置 VLLM_USE_BREAKABLE_CUDAGRAPH=0 会改为编译，"
        "kvcalc 不估算这种情况"),
    "note.mm_prefix_lm_batch_floor": (
        "vLLM (v0.22 and later) raises the default max_num_batched_tokens from {old:,} to {new:,}: this model "
        "attends bidirectionally over an image or video, so one whole item (a 32-frame video) must fit in a batch",
        "vLLM（v0.22 起）把默认的 max_num_batched_tokens 从 {old:,} 提高到 {new:,}：该模型对图像或视频使用双向注意力，"
        "一个完整的输入（32 帧视频）必须放进一个批次"),
    "note.longrope_default": (
        "a LongRoPE model: unless --max-model-len is given, vLLM (v0.11.1 and later) serves {length:,} tokens, "
        "the length it was trained at, not its extended {limit:,}; pass --max-model-len {limit} for the full context",
        "这是 LongRoPE 模型：不给 --max-model-len 时，vLLM（v0.11.1 起）按训练长度 {length:,} 个 token 服务，"
        "而不是扩展后的 {limit:,}；需要完整上下文请传 --max-model-len {limit}"),
    "note.max_len_assumed": (
        "the config has no length key (max_position_embeddings, n_positions, seq_length …), so vLLM assumes "
        "a maximum length of {length:,} tokens and says so in a warning; a --max-model-len you give is taken "
        "as it is, with nothing to check it against",
        "config 中没有任何长度字段（max_position_embeddings、n_positions、seq_length 等），因此 vLLM 假定最大长度为 "
        "{length:,} 个 token，并给出警告；你指定的 --max-model-len 会按原值采用，没有上限可供校验"),
    "note.glm_fp8_kv_on_sm10": (
        "vLLM 0.32+ stores this model's KV cache in fp8_e4m3 on data-centre Blackwell when "
        "--kv-cache-dtype is auto (GlmMoeDsaForCausalLM); pass --kv-cache-dtype bfloat16 to keep 16-bit",
        "在数据中心 Blackwell 上且 --kv-cache-dtype 为 auto 时，vLLM 0.32+ 把这个模型的 KV cache 存为 fp8_e4m3"
        "（GlmMoeDsaForCausalLM）；如需保留 16 位，请传 --kv-cache-dtype bfloat16"),
    "note.gemma4_mtp": (
        "the Gemma 4 MTP drafter reads the target model's cache and adds none",
        "Gemma 4 的 MTP 草稿模型直接读取目标模型的 KV cache，不额外占用"),
    "note.draft_layers": (
        "the draft model adds {layers} layer(s) with a cache of their own",
        "草稿模型增加了 {layers} 层，各自有 KV cache"),
    "note.mtp_layers": (
        "MTP adds {layers} draft layer(s) with their own cache",
        "MTP 增加了 {layers} 个草稿层，各自有 KV cache"),
    "note.first_start_copy": (
        "vLLM {version} may also keep a first start's freed copy of the embedding table charged ({gib:.2f} "
        "GiB): some public first starts of v0.27-v0.30 do, most do not, and the settings do not tell which. "
        "The pool would then come out up to {share:.0f}% below this estimate (the band allows it). A restart "
        "that finds the compile cache (~/.cache/vllm) does not keep it, nor does vLLM 0.31 or later.",
        "vLLM {version} 的首次启动还可能让编译释放的那份嵌入表拷贝（{gib:.2f} GiB）继续被扣除：v0.27–v0.30 的部分公开"
        "首次启动如此，多数不会，无法从设置判断。此时缓存池最多会比本估算低 {share:.0f}%（区间已容许这一点）。"
        "找到编译缓存（~/.cache/vllm）的重启不会保留它，vLLM 0.31 及以后版本也不会。"),
    "note.first_start_copy_exceeds": (
        "vLLM {version} may also keep a first start's freed copy of the embedding table charged ({gib:.2f} "
        "GiB, more than this estimate's whole pool): some public first starts of v0.27-v0.30 do, most do not. "
        "Such a start would leave no KV cache and stop; a restart that finds the compile cache (~/.cache/vllm), "
        "vLLM 0.31 or later, or a higher --gpu-memory-utilization avoids that.",
        "vLLM {version} 的首次启动还可能让编译释放的那份嵌入表拷贝（{gib:.2f} GiB，超过本估算的整个缓存池）继续被扣除："
        "v0.27–v0.30 的部分公开首次启动如此，多数不会。这样的启动将没有 KV cache 可用而停止；找到编译缓存"
        "（~/.cache/vllm）的重启、vLLM 0.31 及以后版本，或更高的 --gpu-memory-utilization 可以避免。"),
    "note.sampler_install": (
        "this release samples its warm-up with FlashInfer when the flashinfer package is installed "
        "(the vllm/vllm-openai images) and by sorting the logits otherwise (pip installs): the "
        "estimate assumes the sort, the larger peak; set VLLM_USE_FLASHINFER_SAMPLER to 1 for the image",
        "该版本在装有 flashinfer 包时（vllm/vllm-openai 镜像）用 FlashInfer 做预热采样，否则（pip 安装）对 logits "
        "排序：估算按峰值更大的排序方式计算；使用该镜像时请把 VLLM_USE_FLASHINFER_SAMPLER 设为 1"),
    "note.mm_profile_unmodelled": (
        "vLLM also runs this model's vision/audio tower over its largest inputs at startup; kvcalc "
        "does not size that pass for this model family, so the activation peak may be higher "
        "(--skip-mm-profiling, or limits of 0 per modality, leave it out)",
        "vLLM 启动时还会用最大的输入跑一遍该模型的视觉/音频塔；kvcalc 尚未为这类模型估算这一步，"
        "因此激活值峰值可能更高（--skip-mm-profiling 或把各模态上限设为 0 可省去）"),
    "note.mm_dummy_options": (
        "--limit-mm-per-prompt also shapes the warm-up's dummy item (num_frames, width, height or length); "
        "kvcalc sizes the largest item of that modality, so its reserve may be high",
        "--limit-mm-per-prompt 还设置了预热虚拟输入的形状（num_frames、width、height 或 length）；kvcalc 按该模态的"
        "最大输入计算，因此预留可能偏高"),
    "note.mm_processor_unmodelled": (
        "--mm-processor-kwargs: kvcalc sizes the warm-up from max_pixels / max_soft_tokens only; it passes "
        "{keys} on to vLLM but does not model them",
        "--mm-processor-kwargs：kvcalc 只按 max_pixels / max_soft_tokens 计算预热；{keys} 会照传给 vLLM，但未计入"),
    "note.hybrid_tower_excess": (
        "at {tokens:,} batched tokens or more, public startups of Mamba/GDN models that profile the "
        "vision tower (Qwen3.5/3.6) kept {low:.1f} to {gib:.1f} GiB more than kvcalc counts, for a reason not "
        "yet identified; the band's low end includes it. Text-only runs of that size "
        "(--language-model-only) matched kvcalc",
        "在 {tokens:,} 个及以上批处理 token 时，对视觉塔做 profile 的 Mamba/GDN 模型（Qwen3.5/3.6）的公开启动日志"
        "比 kvcalc 的计算多占 {low:.1f} 到 {gib:.1f} GiB，原因尚未查明；区间下限已包含这部分。同样规模的纯文本运行"
        "（--language-model-only）与 kvcalc 一致"),
    "note.quick_reduce_idle": (
        "VLLM_ROCM_QUICK_REDUCE_QUANTIZATION changes nothing here: vLLM starts ROCm's quick all-reduce "
        "only on MI300-series and MI355X GPUs (gfx94x/gfx95x), with TP 2, 4 or 8 (INT3: TP 2) and a "
        "16-bit model",
        "VLLM_ROCM_QUICK_REDUCE_QUANTIZATION 在这里不起作用：vLLM 只在 MI300 系列与 MI355X GPU（gfx94x/gfx95x）上、"
        "TP 为 2、4 或 8（INT3 仅 TP 2）且模型为 16 位时才启用 ROCm 的 quick all-reduce"),
    "note.towers_missing": (
        "this config lists no vision or audio tower, though the model's checkpoints carry them: their "
        "weights and vLLM's startup pass over them are not counted, so the estimated pool may come out "
        "high (the model's own config.json from Hugging Face includes them)",
        "这份 config 没有列出视觉或音频塔，但该模型的检查点带有它们：它们的权重以及 vLLM 启动时对它们的试运行都未计入，"
        "因此估算的缓存池可能偏大（Hugging Face 上该模型自己的 config.json 包含这些塔）"),
    "note.unpinned_runs_v1": (
        "without pinned host memory (WSL2) vLLM {version}'s default model runner V2 fails at start-up "
        "('RuntimeError: UVA is not available'; V2 runs without it from v{since}), so this is sized for the V1 "
        "runner, as the command sets it (VLLM_USE_V2_MODEL_RUNNER=0); with VLLM_WSL2_ENABLE_PIN_MEMORY=1 V2 "
        "starts instead: set pinned memory to available for that",
        "没有锁页主机内存时（WSL2），vLLM {version} 默认的 model runner V2 会在启动时失败（“RuntimeError: UVA is not "
        "available”；v{since} 起 V2 可以不用它），因此这里按 V1 runner 估算，命令中也这样设置"
        "（VLLM_USE_V2_MODEL_RUNNER=0）；若设置 VLLM_WSL2_ENABLE_PIN_MEMORY=1，则会启动 V2：那种情况请把锁页内存设为可用"),
    "note.gpu_total_estimated": (
        "the catalog's memory total for the {gpu} is not measured on this card but derived from its sister "
        "cards (data/gpus.json says how): if your log's 'Free memory on device (F/T GiB)' shows another T, "
        "give it (--gpu-memory-gib; on the page, the GPU memory field)",
        "目录中 {gpu} 的显存总量并非在这款卡上实测，而是由同系列的卡推算（data/gpus.json 说明了依据）：如果你的日志 "
        "“Free memory on device (F/T GiB)” 中的 T 不同，请填入它（--gpu-memory-gib；页面上为 GPU 显存总量一栏）"),
    "note.sliding_window_disabled": (
        "--disable-sliding-window: every layer attends over the whole context, which vLLM caps at the model's "
        "sliding window ({window:,} tokens) unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1",
        "--disable-sliding-window：每一层都对整个上下文做注意力，vLLM 会把上下文限制在模型的滑动窗口"
        "（{window:,} 个 token）以内，除非设置 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"),
    "note.long_max_model_len": (
        "--max-model-len {len:,} is past the model's {limit:,} tokens: vLLM takes it because "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set, and warns that positions past what the model was trained on may "
        "give wrong outputs or NaN; the KV cache is sized for the length asked",
        "--max-model-len {len:,} 超过了模型的 {limit:,} 个 token：因为设置了 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1，vLLM 会接受，"
        "但会警告超出模型训练长度的位置可能产生错误输出或 NaN；KV 缓存按所要求的长度估算"),
    "note.release_without_logs": (
        "no public startup log of vLLM {major}.{minor} has been checked yet (the newest is "
        "{newest_major}.{newest_minor}): what "
        "changed since comes from reading the release's code, so lean on the band rather than the "
        "middle figure until your own log confirms it",
        "尚未核对过任何 vLLM {major}.{minor} 的公开启动日志（最新的是 {newest_major}.{newest_minor}）：此后的变化来自阅读该版本的代码，"
        "在你自己的日志确认之前，请以区间而不是中间值为准"),
    "note.mamba_all_mode": (
        "with prefix caching, vLLM {version} keeps a Mamba state for every {block:,}-token block of this "
        "model's requests (cache mode 'all'): {blocks:,} state blocks per request of {length:,} tokens, "
        "so far fewer requests fit; from v0.28 a request keeps 2 whatever its length, and without "
        "prefix caching 1",
        "开启前缀缓存时，vLLM {version} 会为此模型请求的每个 {block:,} token 的块保存一个 Mamba 状态（缓存模式 'all'）："
        "每个 {length:,} token 的请求需要 {blocks:,} 个状态块，因此能容纳的请求少得多；v0.28 起无论长度每个请求只保留 2 个，"
        "不开前缀缓存时为 1 个"),
    "note.draft_caps_max_len": (
        "the draft model holds {draft:,} positions, fewer than the {target:,} asked for: from v0.33 vLLM "
        "lowers max_model_len to the drafter's on model runner V2, which cannot skip speculation for "
        "longer sequences, so the pool and the concurrency are computed at {draft:,}",
        "草稿模型只支持 {draft:,} 个位置，少于所需的 {target:,}：v0.33 起 vLLM 在 model runner V2 上把 max_model_len "
        "降到草稿模型的长度（V2 无法对更长的序列跳过投机解码），因此缓存池与并发数按 {draft:,} 计算"),
    "note.draft_weights": (
        "the draft model's own weights (hundreds of MiB to a few GiB) are not in the weights term: "
        "the fully estimated pool is high by that much",
        "草稿模型自身的权重（几百 MiB 到几 GiB）没有计入权重一项：完全估算的缓存池会相应偏高"),
    "note.draft_assumed": (
        "draft assumed to be one layer shaped like the model's full-attention layers; give the "
        "draft's config.json for its real shape",
        "草稿模型按一层、形状与主模型全注意力层相同来估算；提供草稿模型的 config.json 可得到真实形状"),
    "note.weights_need_checkpoint": (
        "vLLM cannot turn this unquantized checkpoint into {fmt} while it loads: serve a checkpoint "
        "already quantized to {fmt} (a variant of this model); kvcalc prices this model's parameters "
        "in {fmt}, which such a variant matches up to the layers it leaves unquantized",
        "vLLM 无法在加载时把这个未量化的检查点转成 {fmt}：请部署一个已量化为 {fmt} 的检查点（该模型的对应版本）；"
        "kvcalc 按 {fmt} 计价本模型的参数，与这样的版本只差它未量化的那些层"),
    "note.weights_unknown": (
        "the weight size is unknown for this config; give it (safetensors total) to estimate the pool",
        "无法从该 config 得出权重大小；请提供（safetensors 总大小）以估算 KV 池"),
    "note.flashinfer_mixed_heads": (
        "vLLM runs a forced FLASHINFER over this model's two head sizes, but kvcalc does not size the "
        "CUDA-graph estimate it then subtracts: a public v0.29 start of Gemma-4-26B-A4B text-only printed "
        "2.82 GiB where the Triton backend vLLM picks prints 0.50. The pool is given from a log's memory "
        "only; leave the backend to vLLM for an estimate",
        "vLLM 可以在该模型的两种 head 大小上运行强制指定的 FLASHINFER，但 kvcalc 无法估算它随后扣除的 CUDA graph 显存："
        "一次公开的 v0.29 Gemma-4-26B-A4B 纯文本启动打印了 2.82 GiB，而 vLLM 自选的 Triton 后端为 0.50。"
        "缓存池只能按日志的显存给出；若要估算，请让 vLLM 自行选择后端"),
    "note.vocab_unknown": (
        "the config gives no vocab_size and kvcalc does not know its model class's default: the "
        "embedding and the sampler's logits cannot be sized. Add vocab_size to the config to "
        "estimate the pool",
        "该 config 没有 vocab_size，kvcalc 也不知道其模型类的默认值：无法估算词嵌入和采样器的 logits。"
        "请在 config 中补上 vocab_size 以估算 KV 池"),
    "note.weights_over_total": (
        "the weights need {weights:.2f} GiB per GPU, more than the GPU's {total:.2f} GiB: vLLM would "
        "fail with CUDA out of memory while loading. Use more GPUs (--tensor-parallel-size) or a "
        "quantized checkpoint",
        "每张 GPU 的权重需要 {weights:.2f} GiB，超过了 GPU 的 {total:.2f} GiB：vLLM 加载时会报 CUDA out of "
        "memory。请增加 GPU（--tensor-parallel-size）或改用量化权重"),
    "note.weights_over_requested": (
        "the weights need {weights:.2f} GiB per GPU, more than total × gpu_memory_utilization "
        "({requested:.2f} GiB): nothing is left for the KV cache. Raise --gpu-memory-utilization, "
        "add GPUs or quantize the weights",
        "每张 GPU 的权重需要 {weights:.2f} GiB，超过了 总显存 × gpu_memory_utilization（{requested:.2f} GiB）："
        "KV cache 没有剩余空间。请调高 --gpu-memory-utilization、增加 GPU 或量化权重"),
    "note.blocks_override": (
        "--num-gpu-blocks-override fixes the pool at {blocks:,} blocks ({gib:.2f} GiB per GPU) whatever the "
        "memory; the {available:.2f} GiB vLLM finds for the cache would hold more",
        "--num-gpu-blocks-override 把缓存池固定为 {blocks:,} 个块（每块 GPU {gib:.2f} GiB），与显存无关；vLLM "
        "为缓存找到的 {available:.2f} GiB 本可容纳更多"),
    "note.blocks_override_over": (
        "--num-gpu-blocks-override asks for {blocks:,} blocks, {gib:.2f} GiB per GPU, more than the {available:.2f} GiB "
        "vLLM finds for the cache: vLLM allocates them anyway, so the start or a later batch can run out of GPU memory",
        "--num-gpu-blocks-override 要求 {blocks:,} 个块，即每块 GPU {gib:.2f} GiB，超过 vLLM 为缓存找到的 "
        "{available:.2f} GiB：vLLM 仍会照此分配，因此启动时或之后的批次可能显存不足"),
    "basis.weights_cpu_offload": (
        "less {gib:.2f} GiB per GPU of layer weights kept in host memory (--cpu-offload-gb; whole parameters, "
        "so up to {more:.2f} GiB more)",
        "减去每块 GPU 留在主机内存中的 {gib:.2f} GiB 层权重（--cpu-offload-gb；按整个参数移动，最多再多 {more:.2f} GiB）"),
    "note.kv_cache_memory_bytes": (
        "--kv-cache-memory-bytes sets the KV cache memory directly",
        "--kv-cache-memory-bytes 直接指定了 KV cache 显存"),
    "basis.measured_reserve": (
        "measured in your log: everything vLLM subtracted besides the weights",
        "取自你的日志：除权重外 vLLM 扣除的全部显存"),
    # ---- what each budget term rests on (budget.py, reserve.py, weights.py)
    "basis.weights_checkpoint": (
        "checkpoint size, split by component across TP/PP",
        "权重文件大小，按组件在 TP/PP 间切分"),
    "basis.weights_rounding": (
        "plus {mib:,.0f} MiB PyTorch's allocator rounds up on the large tensors",
        "加上 PyTorch 分配器对大张量向上取整的 {mib:,.0f} MiB"),
    "basis.weights_rope": (
        "plus {mib:,.0f} MiB of rotary (RoPE) cos/sin caches built with the model",
        "加上随模型构建的 {mib:,.0f} MiB RoPE cos/sin 缓存"),
    "basis.weights_mxfp4": (
        "MXFP4 experts padded {pct:.1f}% for the Triton kernels' tiles",
        "MXFP4 专家层按 Triton 内核的分块对齐，多占 {pct:.1f}%"),
    "basis.weights_mxfp4_trtllm": (
        "MXFP4 experts on FlashInfer's TRT-LLM kernels, padded {pct:.1f}% for their tiles (each GPU's "
        "expert intermediate size to 256)",
        "MXFP4 专家层走 FlashInfer 的 TRT-LLM 内核，按其分块对齐多占 {pct:.1f}%（每张 GPU 的专家中间维度对齐到 256）"),
    "basis.weights_mxfp4_marlin": (
        "MXFP4 experts on Marlin kernels, padded {pct:.1f}% for their tiles (each GPU's expert "
        "intermediate size to 128)",
        "MXFP4 专家层走 Marlin 内核，按其分块对齐多占 {pct:.1f}%（每张 GPU 的专家中间维度对齐到 128）"),
    "basis.dsv4_forward": (
        "DeepSeek-V4's forward pass: {gib:.2f} GiB at its worst layer (the hyper-connection streams, padded "
        "queries and the indexer's 512 MiB logits placeholder) above {workspace:.2f} GiB of workspace vLLM "
        "keeps ({kind})",
        "DeepSeek-V4 的前向计算：最重的一层 {gib:.2f} GiB（hyper-connection 残差流、填充后的 query 与 indexer 的 "
        "512 MiB logits 占位），另有 vLLM 保留的 {workspace:.2f} GiB 工作区（{kind}）"),
    "basis.dspark_draft": (
        "DSpark's dummy proposal after it: {gib:.2f} GiB (its full-vocabulary logits over every query token)",
        "其后 DSpark 的空跑草稿：{gib:.2f} GiB（对每个 query token 的全词表 logits）"),
    "basis.dsv4_ws_indexer": (
        "the indexer's key gather over max_model_len (1,320 bytes a token, 680 with the MXFP4 indexer cache)",
        "indexer 覆盖 max_model_len 的键收集缓冲区（每 token 1,320 字节，MXFP4 indexer 缓存时为 680）"),
    "basis.dsv4_ws_flashmla": (
        "FlashMLA's prefill gather over max_model_len",
        "FlashMLA 覆盖 max_model_len 的 prefill gather 缓冲区"),
    "basis.dsv4_ws_moe": (
        "the MoE kernel's workspaces",
        "MoE kernel 的工作区"),
    "basis.weights_dsv4": (
        "{billions:.2f} B parameters priced tensor by tensor as vLLM loads DeepSeek-V4: fp8 linear layers with "
        "block scales, {experts} routed experts, bf16 compressors, gates and embeddings, float32 "
        "hyper-connection mixers, plus the RoPE caches and the buffers built with the model",
        "{billions:.2f} B 参数，按 vLLM 加载 DeepSeek-V4 的方式逐个张量计价：带块缩放的 fp8 线性层、{experts} 路由专家、"
        "bf16 的压缩器、门控与嵌入、float32 的 hyper-connection 混合参数，另加 RoPE 缓存与随模型创建的缓冲区"),
    "basis.weights_params": (
        "{billions:.2f} B parameters, {label} weights, split across TP/PP",
        "{billions:.2f} B 参数，{label} 权重，按 TP/PP 切分"),
    "basis.activation": (
        "max(sampler ({sampler}): {rows:,} rows × {vocab:,} vocabulary × {per_entry:g} B, "
        "forward: {mnbt:,} tokens)",
        "max(采样器（{sampler}）：{rows:,} 行 × {vocab:,} 词表 × {per_entry:g} B，"
        "前向：{mnbt:,} tokens)"),
    "basis.rejection_warmup": (
        "with speculative decoding the warm-up also runs the rejection sampler over twice the rows "
        "({plain:g} B per entry without it)",
        "启用推测解码时，预热还会在两倍行数上运行拒绝采样器（不启用时每项 {plain:g} B）"),
    "basis.moe_workspace_kept": (
        "the sampler runs beside the {gib:.2f} GiB fused-MoE workspaces the forward pass leaves allocated",
        "采样器与前向留下的 {gib:.2f} GiB fused-MoE 工作区同时占用显存"),
    "basis.moe_workspace_possible": (
        "the band's reserve end also counts {gib:.2f} GiB of fused-MoE workspaces that the quantized experts' "
        "kernel may keep under the sampler",
        "区间的预留上端还计入量化专家层内核可能在采样器运行时保留的 {gib:.2f} GiB fused-MoE 工作区"),
    "sampler.pytorch": ("PyTorch, sorts the logits", "PyTorch，对 logits 排序"),
    "sampler.flashinfer": ("FlashInfer top-k/top-p kernels", "FlashInfer 的 top-k/top-p 内核"),
    "sampler.triton": ("vLLM's Triton top-k/top-p kernels", "vLLM 的 Triton top-k/top-p 内核"),
    "sampler.flashinfer_then_native": ("FlashInfer top-k/top-p kernels, then vLLM's Triton ones (the warm-up "
                                       "runs both)", "先 FlashInfer 的 top-k/top-p 内核，再 vLLM 的 Triton 内核"
                                       "（预热两者都跑）"),
    "sampler.greedy": ("greedy warm-up of model runner V2", "model runner V2 的贪心预热"),
    "sampler.v2_flashinfer": ("model runner V2's warm-up with sampling parameters, FlashInfer top-k/top-p",
                              "model runner V2 带采样参数的预热，FlashInfer top-k/top-p"),
    "sampler.v2_triton": ("model runner V2's warm-up with sampling parameters, vLLM's Triton top-k/top-p",
                          "model runner V2 带采样参数的预热，vLLM 的 Triton top-k/top-p"),
    "basis.vision_image": (
        "the vision tower's profile pass over {items} image(s) of {tokens:,} tokens: {gib:.2f} GiB "
        "(--skip-mm-profiling leaves it out)",
        "视觉塔对 {items} 张 {tokens:,} token 的最大图像的 profile 前向：{gib:.2f} GiB（--skip-mm-profiling 可省去）"),
    "basis.vision_video": (
        "the vision tower's profile pass over {items} video(s) of {tokens:,} tokens: {gib:.2f} GiB "
        "(--skip-mm-profiling leaves it out)",
        "视觉塔对 {items} 段 {tokens:,} token 的最大视频的 profile 前向：{gib:.2f} GiB（--skip-mm-profiling 可省去）"),
    "basis.embedder_image": (
        "the encoder-free vision embedder's profile pass over {items} image(s) of {tokens:,} tokens, one "
        "image at a time: {mib:,.0f} MiB (--skip-mm-profiling leaves it out)",
        "无编码器的视觉嵌入层对 {items} 张 {tokens:,} token 的最大图像逐张做 profile 前向：{mib:,.0f} MiB"
        "（--skip-mm-profiling 可省去）"),
    "basis.embedder_video": (
        "the encoder-free vision embedder's profile pass over {items} video(s) of {tokens:,} tokens, one "
        "frame at a time: {mib:,.0f} MiB (--skip-mm-profiling leaves it out)",
        "无编码器的视觉嵌入层对 {items} 段 {tokens:,} token 的最大视频逐帧做 profile 前向：{mib:,.0f} MiB"
        "（--skip-mm-profiling 可省去）"),
    "basis.hybrid_tower_excess": (
        "the band's reserve end adds {gib:.1f} GiB: public starts of Mamba/GDN models that profile the "
        "vision tower kept up to {per:.1f} GiB per {tokens:,} batched tokens ({most:.1f} at most) beyond "
        "these terms, for a reason not yet identified",
        "区间的预留上端另加 {gib:.1f} GiB：对视觉塔做 profile 的 Mamba/GDN 模型的公开启动日志，在这些项之外"
        "每 {tokens:,} 个批处理 token 多占至多 {per:.1f} GiB（最多 {most:.1f} GiB），原因尚未查明"),
    "basis.allreduce_fusion": (
        "plus FlashInfer's all-reduce workspace for TP {tp} ({backend} layout; made in the profile by "
        "the all-reduce + RMSNorm fusion from v0.17 on Hopper and Blackwell, and by the standalone "
        "all-reduce from v0.29): {gib:.2f} GiB",
        "再加 FlashInfer 的 all-reduce 工作区（TP {tp}；{backend} 布局；v0.17 起在 Hopper 与 Blackwell 上由 "
        "all-reduce + RMSNorm 融合、v0.29 起由独立 all-reduce 在 profile 中创建）：{gib:.2f} GiB"),
    "basis.cublas_prepaid": (
        "less {mib} MiB that cuBLAS takes at its first call: from v0.33 vLLM makes the cuBLAS handles "
        "before its first memory snapshot, so the profile no longer counts them (measured on an H200)",
        "减去 cuBLAS 首次调用占用的 {mib} MiB：v0.33 起 vLLM 在第一次显存快照之前创建 cuBLAS 句柄，"
        "profile 不再计入（在 H200 上实测）"),
    "basis.cublas_prepaid_capped": (
        "less {mib} MiB for cuBLAS's set-up: from v0.33 vLLM makes the cuBLAS handles before its first "
        "memory snapshot, so the profile no longer counts them; measured at {measured} MiB on an H200, "
        "here at most this GPU's whole one-GPU figure",
        "减去 cuBLAS 初始化的 {mib} MiB：v0.33 起 vLLM 在第一次显存快照之前创建 cuBLAS 句柄，profile 不再计入；"
        "在 H200 上实测为 {measured} MiB，这里至多为这张 GPU 单卡的全部该项"),
    "basis.quick_reduce": (
        "plus ROCm quick all-reduce's buffer (VLLM_ROCM_QUICK_REDUCE_QUANTIZATION): {gib:.2f} GiB",
        "再加 ROCm quick all-reduce 的缓冲区（VLLM_ROCM_QUICK_REDUCE_QUANTIZATION）：{gib:.2f} GiB"),
    "basis.mm_kept": (
        "its outputs and pixel values stay allocated through the language model's pass and the "
        "sampler, on top of them: {gib:.2f} GiB",
        "其输出和像素值在语言模型前向与采样器运行期间一直占用显存，叠加在它们之上：{gib:.2f} GiB"),
    "basis.mm_kept_padded": (
        "its outputs, padded to {rows:,} rows each in the encoder cache as this release does, and "
        "the pixel values stay allocated through the language model's pass and the sampler, on top "
        "of them: {gib:.2f} GiB",
        "其输出（按此版本的做法，在编码器缓存中各补齐到 {rows:,} 行）与像素值在语言模型前向与采样器运行期间一直占用显存，"
        "叠加在它们之上：{gib:.2f} GiB"),
    "basis.graphs_after_warmup": (
        "taken before the extensible cache measures the free memory, so it comes out of the pool though the "
        "printed 'Available KV cache memory' leaves it out; sized as {basis}",
        "在可扩展缓存测量空闲显存之前就已占用，因此虽然打印的 'Available KV cache memory' 不包含它，仍从缓存池中扣除；"
        "大小按 {basis}"),
    "basis.flashinfer_workspace_warmup_only": (
        "FlashInfer's {mib} MiB attention workspace (no graphs are captured), which the warm-up's steps allocate "
        "(the profile builds no attention metadata, so its estimate leaves it out)",
        "FlashInfer 的 {mib} MiB 注意力工作区（不捕获任何 graph）：由预热步骤分配（profile 不构建注意力元数据，"
        "因此其估算值不含这部分）"),
    "basis.startup_in_use": (
        "device memory in use when vLLM's worker starts (CUDA context, cuBLAS, NCCL): total less the 'Free "
        "memory on device … on startup' of stored logs, 0.1-0.6 GiB on one GPU, up to 1.2 GiB with several",
        "vLLM worker 启动时已占用的显存（CUDA 上下文、cuBLAS、NCCL）：总显存减去已存日志中的 'Free memory on device … "
        "on startup'，单卡 0.1-0.6 GiB，多卡最多 1.2 GiB"),
    "basis.extensible_margin": (
        "the extensible KV cache's margin: max({floor:g} GiB, 0.75 × the largest transient peak: the activation "
        "peak, a first start's compile temporaries included, or the sizing warm-up's step where larger), kept "
        "free for fragmentation and steps warm-up does not reproduce "
        "(KV_CACHE_MARGIN_FLOOR_BYTES, KV_CACHE_MARGIN_FRACTION)",
        "可扩展 KV 缓存的余量：max({floor:g} GiB, 0.75 × 最大的瞬时峰值：激活峰值（包括首次启动编译的临时显存），"
        "或更大时取容量测定预热步骤的峰值)，为碎片和预热未复现的步骤保留"
        "（KV_CACHE_MARGIN_FLOOR_BYTES、KV_CACHE_MARGIN_FRACTION）"),
    "basis.mla_context_step": (
        "the sizing warm-up's prefill over a cached prefix (MLA): it up-projects {tokens:,} cached tokens' latents "
        "into per-head keys and values, {gib:.2f} GiB (up to {high:.2f} where the prefill kernel copies the "
        "values), which vLLM keeps free where it exceeds the profile's peak "
        "(vllm/v1/worker/gpu/warmup.py run_context_prefill_warmup)",
        "容量测定预热中基于已缓存前缀的 prefill（MLA）：把 {tokens:,} 个已缓存 token 的潜向量上投影为每个注意力头的 key 与 "
        "value，共 {gib:.2f} GiB（prefill 内核复制 value 时最多 {high:.2f}）；超出 profile 峰值的部分由 vLLM 保留为空闲"
        "（vllm/v1/worker/gpu/warmup.py run_context_prefill_warmup）"),
    "basis.in_measured_reserve": (
        "counted in the reserve your log measured",
        "已计入你的日志实测的预留中"),
    "basis.non_torch": (
        "allocator and library workspaces, {single:.2f} GiB",
        "分配器与各类库的工作区 {single:.2f} GiB"),
    "basis.non_torch_peers": (
        "allocator and library workspaces, {single:.2f} GiB, plus NCCL and all-reduce buffers for {peers} peer "
        "GPU(s) × {per_peer:.2f} GiB",
        "分配器与各类库的工作区 {single:.2f} GiB，再加与 {peers} 张对端 GPU 通信的 NCCL 与 all-reduce 缓冲区，"
        "每张 {per_peer:.2f} GiB"),
    "basis.non_torch_peers_no_p2p": (
        "allocator and library workspaces, {single:.2f} GiB, plus {per_peer:.2f} GiB of NCCL set-up for its "
        "{peers} peer GPU(s) (this GPU usually has no direct peer-to-peer path, so NCCL stages through host "
        "memory and keeps no buffer per peer on the GPU)",
        "分配器与各类库的工作区 {single:.2f} GiB，再加与 {peers} 张对端 GPU 通信的 NCCL 初始化 {per_peer:.2f} GiB"
        "（这种 GPU 通常没有直接的点对点通路，NCCL 经主机内存中转，不在 GPU 上为每张对端保留缓冲区）"),
    "basis.non_torch_peers_no_p2p_set": (
        "allocator and library workspaces, {single:.2f} GiB, plus {per_peer:.2f} GiB of NCCL set-up for its "
        "{peers} peer GPU(s) (no direct peer-to-peer path, as set, so NCCL stages through host memory and keeps "
        "no buffer per peer on the GPU)",
        "分配器与各类库的工作区 {single:.2f} GiB，再加与 {peers} 张对端 GPU 通信的 NCCL 初始化 {per_peer:.2f} GiB"
        "（按设置没有直接的点对点通路，NCCL 经主机内存中转，不在 GPU 上为每张对端保留缓冲区）"),
    "basis.non_torch_peers_p2p_set": (
        "allocator and library workspaces, {single:.2f} GiB, plus NCCL and all-reduce buffers for {peers} peer "
        "GPU(s) × {per_peer:.2f} GiB (a direct peer-to-peer path, as set)",
        "分配器与各类库的工作区 {single:.2f} GiB，再加与 {peers} 张对端 GPU 通信的 NCCL 与 all-reduce 缓冲区，"
        "每张 {per_peer:.2f} GiB（按设置有直接的点对点通路）"),
    "basis.non_torch_pre_hopper": (
        "GPUs before Hopper keep about a third of what Hopper does there, in the public logs that print it",
        "在打印该项的公开日志中，Hopper 之前的 GPU 在这一项上约为 Hopper 的三分之一"),
    "basis.non_torch_rocm": (
        "public starts on AMD GPUs keep more here than NVIDIA's {cuda:.2f} GiB (ROCm's libraries and kernel "
        "images)",
        "在 AMD GPU 上，公开的启动日志在这一项上比 NVIDIA 的 {cuda:.2f} GiB 多（ROCm 自身的库与内核映像）"),
    "basis.non_torch_fixed": (
        "plus {fixed:.2f} GiB the public logs of {era} leave beyond the modelled terms",
        "再加 {era} 的公开日志在已建模各项之外多出的 {fixed:.2f} GiB"),
    "basis.non_torch_fixed_eager": (
        "without the {fixed:.2f} GiB fixed part of {era}: it was fitted on compiled runs, and public "
        "--enforce-eager starts leave less",
        "不加 {era} 的 {fixed:.2f} GiB 固定量：它是按编译运行拟合的，公开的 --enforce-eager 启动日志占用更少"),
    "basis.dense_token_ids": (
        "plus the speculator's token history on the GPU (n-gram; suffix decoding from v0.34): {seqs:,} request "
        "slots × {length:,} tokens × 4 B = {gib:.2f} GiB",
        "再加推测解码放在 GPU 上的 token 历史（n-gram；v0.34 起也包括 suffix 解码）：{seqs:,} 个请求槽位 × {length:,} 个 "
        "token × 4 B = {gib:.2f} GiB"),
    "basis.dense_token_ids_unpinned": (
        "plus every request's token ids (and an M-RoPE model's prefill positions) in GPU memory, since without "
        "pinned host memory (WSL2) model runner V2 cannot keep them in host memory: {seqs:,} request slots × "
        "{rows} row(s) × {length:,} tokens × 4 B = {gib:.2f} GiB",
        "再加放在 GPU 显存中的全部请求 token id（M-RoPE 模型还有其预填充位置）：没有锁页主机内存（WSL2）时，"
        "model runner V2 无法把它们放在主机内存里：{seqs:,} 个请求槽位 × {rows} 行 × {length:,} 个 token × 4 B = "
        "{gib:.2f} GiB"),
    "basis.penalty_buffer": (
        "plus model runner V2's sampler counts: {seqs:,} request slots × {vocab:,} vocabulary × 4.1 B = {gib:.2f} GiB",
        "再加 model runner V2 采样器的计数缓冲区：{seqs:,} 个请求槽位 × {vocab:,} 词表 × 4.1 B = {gib:.2f} GiB"),
    "basis.cuda_graphs": (
        "vLLM's estimate: {piecewise} piecewise + {full} full graphs "
        "(capture sizes up to {largest}) × {per:g} MiB",
        "vLLM 的估算值：{piecewise} 个 piecewise + {full} 个 full graph"
        "（capture size 最大 {largest}）× {per:g} MiB"),
    "basis.cuda_graphs_split": (
        "v0.34 on 10.x: {prefill} prefill graphs up to {largest:,} tokens and {decode} decode graphs; the band's "
        "top adds {gib:.2f} GiB, one forward pass of the largest prefill graph kept in the graph pool",
        "v0.34 在 10.x 上：{prefill} 个 prefill graph（最大 {largest:,} 个 token）与 {decode} 个 decode graph；"
        "区间上限另加 {gib:.2f} GiB，即图内存池中保留的最大 prefill graph 的一次前向"),
    "basis.cuda_graphs_captured": (
        "what the capture keeps: {piecewise} piecewise + {full} full graphs (capture sizes up to {largest}) × "
        "{per:g} MiB, the cost per graph model runner V2's captures show in public logs ('Graph capturing "
        "finished … took'), about 0.6 of vLLM's estimate, which the extensible cache does not use",
        "捕获后实际占用的显存：{piecewise} 个 piecewise + {full} 个 full graph（capture size 最大 {largest}）× "
        "{per:g} MiB，即公开日志中 model runner V2 每个 graph 的实际捕获开销（'Graph capturing finished … took'），"
        "约为 vLLM 估算值的 0.6；可扩展缓存不使用该估算值"),
    "basis.state_first_capture_v2": (
        "no {first:.2f} GiB for the state layers' first capture (Mamba, GDN, short convolution), which the V1 "
        "runner's estimate takes over long contexts: model runner V2 captures its graphs at short ones",
        "不计状态层（Mamba、GDN、短卷积）首次捕获的 {first:.2f} GiB：V1 runner 的估算在长上下文上做这次捕获，"
        "model runner V2 则在短上下文上捕获"),
    "basis.flashinfer_workspace_warmup": (
        "plus FlashInfer's {mib} MiB attention workspace, which the warm-up's steps allocate before the extensible "
        "cache measures the free memory (the profile builds no attention metadata, so its estimate leaves it out)",
        "再加 FlashInfer 的 {mib} MiB 注意力工作区：预热步骤在可扩展缓存测量空闲显存之前就分配了它"
        "（profile 不构建注意力元数据，因此其估算值不含这部分）"),
    "basis.cuda_graphs_hybrid": (
        "vLLM's estimate: {piecewise} piecewise + {full} full graphs "
        "(capture sizes up to {largest}) × {per:g} MiB + {first:.2f} GiB for the first capture of the state layers (Mamba, GDN, short convolution)",
        "vLLM 的估算值：{piecewise} 个 piecewise + {full} 个 full graph"
        "（capture size 最大 {largest}）× {per:g} MiB，再加状态层（Mamba、GDN、短卷积）首次捕获的 {first:.2f} GiB"),
    "basis.nvls": (
        "plus {gib:.2f} GiB for NCCL's NVLink SHARP, on for a TP group of {tp} GPUs on NVSwitch multicast "
        "(public TP 4 and TP 8 logs on such boards)",
        "再加 {gib:.2f} GiB：NVSwitch 多播板卡上 {tp} 张 GPU 的 TP 组会启用 NCCL 的 NVLink SHARP（取自此类板卡上公开的 TP 4 与 TP 8 日志）"),
    "basis.cuda_graphs_drafter": (
        "vLLM's estimate also captures the speculative drafter's own graphs, which kvcalc does not size: "
        "the band's top adds {high:.2f} GiB for them (public Gemma 4 MTP starts on an L40S: +0.43 to 0.45 GiB)",
        "vLLM 的估算还会捕获推测解码草稿模型自己的 graph，kvcalc 没有为它们估算大小：区间上限为此再加 {high:.2f} GiB"
        "（公开的 Gemma 4 MTP 在 L40S 上的启动日志：多 0.43 到 0.45 GiB）"),
    "basis.flashinfer_workspace": (
        "plus {typical} MiB for FlashInfer's {mib} MiB attention workspace, which the first full graph's capture "
        "allocates (the profile run builds no attention metadata); public starts show 394 MiB of it adding 0.20 to "
        "0.36 GiB to vLLM's estimate, so the band's top counts all of it, and each end what a workspace sized for "
        "the batch (from v0.26: max_num_batched_tokens × query heads × head size × 16 B) holds beyond 394 MiB",
        "再加 {typical} MiB，对应 FlashInfer 的 {mib} MiB 注意力工作区：它在第一个 full graph 捕获时分配（profile 运行不构建"
        "注意力元数据）；公开启动日志显示其中 394 MiB 使 vLLM 的估算增加 0.20 至 0.36 GiB，因此区间上限计入全部，"
        "而按批次大小确定的工作区（v0.26 起：max_num_batched_tokens × query 头数 × head 大小 × 16 B）超出 394 MiB "
        "的部分计入区间两端"),
    "basis.flashinfer_workspace_hybrid": (
        "plus FlashInfer's {mib} MiB attention workspace, which the first full graph's capture allocates and which "
        "holds that capture's scratch over long contexts, so it stands in for the state layers' first-capture term "
        "(fp8-cache Qwen3.6 starts on FlashInfer print about 0.4 GiB for 2 to 4 graphs); from v0.26 it is sized for "
        "the batch: max_num_batched_tokens × query heads × head size × 16 B, at least 394 MiB",
        "再加 FlashInfer 的 {mib} MiB 注意力工作区：它在第一个 full graph 捕获时分配，并容纳该次长上下文捕获的临时数据，"
        "因此代替状态层的首次捕获项（使用 fp8 缓存、运行 FlashInfer 的 Qwen3.6 启动日志在 2 至 4 个 graph 时打印约 0.4 GiB）；"
        "v0.26 起按批次确定大小：max_num_batched_tokens × query 头数 × head 大小 × 16 B，至少 394 MiB"),
    "basis.cuda_graphs_mode": (
        "as cudagraph_mode {mode} captures them",
        "即 cudagraph_mode {mode} 所捕获的 graph"),
    "basis.cuda_graphs_mode_none": (
        "cudagraph_mode {mode} captures no graph here, so vLLM's estimate is 0 (the model is still compiled)",
        "cudagraph_mode {mode} 在这里不捕获任何 graph，因此 vLLM 的估算为 0（模型仍会编译）"),
    "basis.cuda_graphs_rocm": (
        "on ROCm a graph costs about {per_layer:g} MiB per decoder layer ({layers} here), far more than on CUDA "
        "(public MI300X and MI355X logs)",
        "在 ROCm 上每个 graph 每个解码层约 {per_layer:g} MiB（这里共 {layers} 层），远多于 CUDA（公开的 MI300X 与 MI355X 日志）"),
    "basis.cuda_graphs_nccl": (
        "plus {gib:.2f} GiB because NCCL, not vLLM's custom all-reduce, runs the all-reduces inside the graphs "
        "({why}): about {per_layer:g} MiB per graph for each of the {layers} decoder layers, in public PCIe starts",
        "再加 {gib:.2f} GiB：graph 内的 all-reduce 由 NCCL 而非 vLLM 的 custom all-reduce 执行（{why}）："
        "按公开的 PCIe 启动日志，每个 graph 在 {layers} 个解码层中每层约 {per_layer:g} MiB"),
    "basis.cuda_graphs_nccl_possible": (
        "the band's top adds what NCCL's captured all-reduces would cost, about {gib:.2f} GiB ({per_layer:g} MiB "
        "per graph for each of the {layers} decoder layers), in case vLLM's custom all-reduce stays off ({why})",
        "区间上限另加 NCCL 在 graph 内执行 all-reduce 的开销，约 {gib:.2f} GiB（每个 graph 在 {layers} 个解码层中"
        "每层约 {per_layer:g} MiB），以防 vLLM 的 custom all-reduce 关闭（{why}）"),
    "nccl.why_flag": (
        "--disable-custom-all-reduce turns it off",
        "--disable-custom-all-reduce 关闭了它"),
    "nccl.why_tp_size": (
        "it serves TP sizes of 2, 4, 6 and 8 only",
        "它只支持 2、4、6、8 的 TP 规模"),
    "nccl.why_pcie": (
        "it does not run on more than two GPUs unless NVLink links every pair",
        "两张以上的 GPU 除非两两以 NVLink 相连，否则它不会运行"),
    "nccl.why_no_p2p": (
        "it needs peer-to-peer access, which GeForce drivers refuse",
        "它需要点对点访问，而 GeForce 驱动不允许"),
    "nccl.why_no_p2p_set": (
        "it needs peer-to-peer access, which these GPUs do not have, as set",
        "它需要点对点访问，而按设置这些 GPU 没有"),
    "nccl.why_p2p_by_host": (
        "two GPUs without NVLink keep it only where the host allows peer-to-peer, as public L40S and L20 pairs did "
        "and Kaggle's T4 pair did not: set the GPUs' peer-to-peer when you know it",
        "两张没有 NVLink 的 GPU 只有在主机允许点对点访问时才会启用它：公开的 L40S 与 L20 双卡如此，Kaggle 的 T4 双卡则不然；"
        "若已知，请设置 GPU 的点对点访问"),
    "basis.cold_compile": (
        "a first start compiles the model inside vLLM's profiling: its temporaries ({peak:.2f} GiB, about "
        "one copy of the {table:.2f} GiB input-embedding table one GPU holds) count where they exceed the "
        "warm-up's own peak: {gib:.2f} GiB, up to {high:.2f}; a restart that finds the compile cache "
        "(~/.cache/vllm) has none of it",
        "首次启动时模型在 vLLM 的 profiling 期间编译：编译的临时张量（{peak:.2f} GiB，约为每张 GPU 所持 "
        "{table:.2f} GiB 输入嵌入表的一份拷贝）超出预热自身峰值的部分会被计入：共 {gib:.2f} GiB，最多 {high:.2f}；"
        "找到编译缓存（~/.cache/vllm）的重启没有这部分"),
    "basis.cold_compile_assumed": (
        "assumed a first start, which compiles the model inside vLLM's profiling: its temporaries "
        "({peak:.2f} GiB, about one copy of the {table:.2f} GiB input-embedding table one GPU holds) count where "
        "they exceed the warm-up's own peak: {gib:.2f} GiB, up to {high:.2f}; a restart that finds the "
        "compile cache (~/.cache/vllm) has none of it: set the compile cache to warm for that",
        "按首次启动估算，首次启动时模型在 vLLM 的 profiling 期间编译：编译的临时张量（{peak:.2f} GiB，约为每张 GPU "
        "所持 {table:.2f} GiB 输入嵌入表的一份拷贝）超出预热自身峰值的部分会被计入：共 {gib:.2f} GiB，"
        "最多 {high:.2f}；找到编译缓存（~/.cache/vllm）的重启没有这部分：那种情况请把编译缓存设为 warm"),
    "basis.cold_compile_per_layer": (
        "a first start compiles the model inside vLLM's profiling: its temporaries ({peak:.2f} GiB, about "
        "one copy of the {table:.2f} GiB per-layer input table one GPU holds, the larger of the two tables the "
        "compiled graph looks up) count where they exceed the warm-up's own peak: {gib:.2f} GiB, up to "
        "{high:.2f}; a restart that finds the compile cache (~/.cache/vllm) has none of it",
        "首次启动时模型在 vLLM 的 profiling 期间编译：编译的临时张量（{peak:.2f} GiB，约为每张 GPU 所持 "
        "{table:.2f} GiB 逐层输入表的一份拷贝，它是编译图所查两张表中较大的一张）超出预热自身峰值的部分会被计入："
        "共 {gib:.2f} GiB，最多 {high:.2f}；找到编译缓存（~/.cache/vllm）的重启没有这部分"),
    "basis.cold_compile_assumed_per_layer": (
        "assumed a first start, which compiles the model inside vLLM's profiling: its temporaries "
        "({peak:.2f} GiB, about one copy of the {table:.2f} GiB per-layer input table one GPU holds, the larger "
        "of the two tables the compiled graph looks up) count where they exceed the warm-up's own peak: "
        "{gib:.2f} GiB, up to {high:.2f}; a restart that finds the compile cache (~/.cache/vllm) has none of "
        "it: set the compile cache to warm for that",
        "按首次启动估算，首次启动时模型在 vLLM 的 profiling 期间编译：编译的临时张量（{peak:.2f} GiB，约为每张 GPU "
        "所持 {table:.2f} GiB 逐层输入表的一份拷贝，它是编译图所查两张表中较大的一张）超出预热自身峰值的部分会被计入："
        "共 {gib:.2f} GiB，最多 {high:.2f}；找到编译缓存（~/.cache/vllm）的重启没有这部分：那种情况请把编译缓存设为 warm"),
    "basis.cold_compile_kept": (
        "on the V1 model runner (v0.29 and v0.30) a first start also keeps the memory of that freed copy: "
        "a later allocation is carved out of it, so PyTorch cannot give it back before vLLM measures, and "
        "vLLM charges it: {gib:.2f} GiB more (every public V1-runner first start of those releases shows it)",
        "在 V1 model runner 上（v0.29 与 v0.30）首次启动还会留住那份已释放拷贝的显存：之后的分配从中切走一部分，"
        "PyTorch 无法在 vLLM 测量之前归还它，vLLM 便把它扣除：再加 {gib:.2f} GiB（这两个版本所有公开的 V1-runner 首次启动都有）"),
    "basis.cold_compile_kept_possible": (
        "the band's reserve end also allows that freed copy ({gib:.2f} GiB) to stay charged, as in some "
        "public first starts of v0.27-v0.30 where a later allocation was carved out of it (from v0.31 the "
        "profile run no longer splits such blocks)",
        "区间的保守端还容许那份已释放的拷贝（{gib:.2f} GiB）仍被扣除：v0.27–v0.30 的部分公开首次启动中，之后的分配"
        "从中切走了一部分（从 v0.31 起 profile 运行不再切分这样的块）"),
    "basis.unified_memory": (
        "on a unified-memory GPU vLLM takes free memory from the OS, so the host memory its processes "
        "use while loading and profiling (loader buffers, the compiler, Python objects) is counted too: "
        "{gib:.2f} GiB in public DGX Spark logs (mostly first starts), {low:.2f} to {high:.2f}; "
        "--kv-cache-memory-bytes sets the pool without this measurement",
        "在统一内存 GPU 上，vLLM 从操作系统读取空闲内存，因此其进程在加载和 profiling 期间占用的主机内存"
        "（加载器缓冲、编译器、Python 对象）也会被计入：公开的 DGX Spark 日志（多为首次启动）中为 {gib:.2f} GiB，"
        "范围 {low:.2f} 至 {high:.2f}；用 --kv-cache-memory-bytes 设定缓存池可绕过这次测量"),
    "basis.unified_memory_hybrid_tower": (
        "that figure includes {gib:.2f} GiB ({low:.2f} to {high:.2f}) because the model has Mamba/GDN layers and vLLM "
        "profiles its vision tower: public DGX Spark first starts of such models (Qwen3.5/3.6) keep that much "
        "more host memory than others, for a reason not yet identified (--language-model-only or "
        "--skip-mm-profiling leaves it out)",
        "上述数值包含 {gib:.2f} GiB（{low:.2f} 至 {high:.2f}），因为模型含 Mamba/GDN 层且 vLLM 会对其视觉塔做 profiling："
        "公开的 DGX Spark 日志中，这类模型（Qwen3.5/3.6）首次启动占用的主机内存比其他模型多出这么多，原因尚未查明"
        "（--language-model-only 或 --skip-mm-profiling 可省去）"),
    "basis.unified_memory_page_cache": (
        "on a unified-memory GPU vLLM takes free memory from CUDA, which counts page cache as used, so the "
        "host memory its processes use while loading and profiling is counted ({gib:.2f} GiB in public "
        "DGX Spark logs) and so may be a checkpoint read from disk (up to {high:.2f} GiB; from v0.11.1 "
        "reclaimable cache counts as free); --kv-cache-memory-bytes sets the pool without this measurement",
        "在统一内存 GPU 上，vLLM 从 CUDA 读取空闲内存，页缓存被算作已用，因此其进程在加载和 profiling 期间占用的主机内存"
        "会被计入（公开的 DGX Spark 日志中为 {gib:.2f} GiB），从磁盘读入的检查点也可能被计入（最多 {high:.2f} GiB；"
        "v0.11.1 起可回收的缓存算作空闲）；用 --kv-cache-memory-bytes 设定缓存池可绕过这次测量"),
    "basis.draft_eagle": (
        "the {method} drafter from its config: its decoder layer(s), fc and LM head, {gib:.2f} GiB on "
        "this GPU; up to {high:.2f} if its checkpoint carries an embedding of its own that differs from "
        "the model's (vLLM shares the model's otherwise)",
        "{method} 草稿模型，按其配置计算：解码层、fc 与 LM head，在这张 GPU 上为 {gib:.2f} GiB；"
        "若其检查点自带且与主模型不同的嵌入层，最多 {high:.2f}（否则 vLLM 共用主模型的嵌入层）"),
    "basis.draft_model": (
        "the draft model's own weights, from its config: {gib:.2f} GiB on this GPU",
        "草稿模型自身的权重，按其配置计算：在这张 GPU 上为 {gib:.2f} GiB"),
    "basis.cuda_graphs_none": (
        "not subtracted in this setting",
        "在此设置下不扣除"),
    "era.v1_before_0_21": ("V1 model runner before v0.21", "v0.21 之前的 V1 model runner"),
    "era.v1_from_0_21": ("V1 model runner, v0.21 to v0.28", "V1 model runner，v0.21 至 v0.28"),
    "era.mrv2_before_0_29": ("model runner V2 before v0.29", "v0.29 之前的 model runner V2"),
    "era.from_0_29": ("v0.29 and later (model runner V2 for all models)",
                      "v0.29 及以后（所有模型均用 model runner V2）"),
    # ---- tensor / pipeline parallelism, block sizes, KV dtypes (kvspecs.py)
    "tp.heads": (
        "the model's {heads} attention heads must divide evenly across {tp} GPUs",
        "模型的 {heads} 个注意力头无法在 {tp} 张 GPU 上均分"),
    "tp.o_groups": (
        "DeepSeek-V4's output projection has {groups} groups, which {tp} GPUs cannot share evenly (vLLM gives "
        "each GPU o_groups / TP of them)",
        "DeepSeek-V4 的输出投影有 {groups} 个组，{tp} 张 GPU 无法均分（vLLM 给每张 GPU o_groups / TP 个组）"),
    "tp.mamba_groups": (
        "the Mamba2 mixer's {groups} groups cannot be split across {tp} GPUs (vLLM needs the groups divisible "
        "by TP, or a single group)",
        "Mamba2 混合器的 {groups} 个组无法切分到 {tp} 张 GPU 上（vLLM 要求组数能被 TP 整除，或只有一个组）"),
    "tp.kv_heads": (
        "{heads} KV heads cannot be split across {tp} GPUs (vLLM needs heads divisible by TP, "
        "or TP divisible by heads)",
        "{heads} 个 KV 头无法切分到 {tp} 张 GPU 上（vLLM 要求头数能被 TP 整除，或 TP 能被头数整除）"),
    "tp.sizes_that_work": (
        "{problem}. Sizes that work: {sizes}",
        "{problem}。可用的 TP 大小：{sizes}"),
    "tp.no_size_works": (
        "{problem}. Sizes that work: none",
        "{problem}。没有可用的 TP 大小"),
    "tp.channels": (
        "the model's {value} {what} do not divide across {tp} GPUs",
        "模型的 {value} 个{what}无法在 {tp} 张 GPU 上均分"),
    "tp.what.linear_channels": ("linear attention channels", "线性注意力通道"),
    "tp.what.linear_heads": ("linear attention value heads", "线性注意力 value 头"),
    "tp.what.mamba_channels": ("Mamba channels", "Mamba 通道"),
    "tp.what.mamba_heads": ("Mamba heads", "Mamba 头"),
    "tp.what.conv_channels": ("convolution channels", "卷积通道"),
    "pp.empty_stage": (
        "{pp} stages for {layers} layers leaves a stage without layers",
        "{layers} 层分成 {pp} 个流水线阶段，会有阶段分不到层"),
    "kv.not_for_mla": (
        "{name} is not available for MLA models",
        "MLA 模型不支持 {name}"),
    "model.no_kv_layers": (
        "no layer of this model keeps a KV cache",
        "该模型没有任何层需要 KV cache"),
    "block.sparse_mla": (
        "DeepSeek-V3.2 sparse MLA backends and the indexer use 64-token blocks",
        "DeepSeek-V3.2 的稀疏 MLA 后端与 indexer 使用 64 token 的块"),
    "block.rocm_sparse_mla_16": (
        "sparse MLA on ROCm (AITER's sparse backend and indexer) keeps the default 16-token blocks",
        "ROCm 上的稀疏 MLA（AITER 稀疏后端与 indexer）保持默认的 16 token 块"),
    "block.rocm_sparse_mla_1": (
        "sparse MLA on ROCm: AITER's sparse backend and indexer take 1-token kernel blocks here, so "
        "vLLM sets the block size to 1",
        "ROCm 上的稀疏 MLA：此版本 AITER 稀疏后端与 indexer 只接受 1 token 的 kernel 块，因此 vLLM 把块大小设为 1"),
    "block.rocm_sparse_mla_needs_1": (
        "vLLM {version} runs sparse MLA on ROCm only with --block-size 1 (it asserts 'Sparse MLA backend on "
        "ROCm only supports block size 1'); pass --block-size 1, or choose vLLM {since} or newer, which "
        "sets it itself",
        "vLLM {version} 在 ROCm 上只能以 --block-size 1 运行稀疏 MLA（断言 'Sparse MLA backend on ROCm only "
        "supports block size 1'）；请传入 --block-size 1，或选择会自行设置它的 vLLM {since} 及更新版本"),
    "block.rocm_sparse_mla_missing": (
        "vLLM {version} has no sparse MLA backend on ROCm (DeepSeek-V3.2's indexer attention); vLLM {since} "
        "added AITER's; choose it or a newer release",
        "vLLM {version} 在 ROCm 上没有稀疏 MLA 后端（DeepSeek-V3.2 的 indexer 注意力）；vLLM {since} 加入了 "
        "AITER 的实现；请选择该版本或更新的版本"),
    "block.rocm_sparse_mla_fp8": (
        "vLLM {version} refuses an fp8 KV cache for sparse MLA on ROCm ('ROCMAiterMLASparseBackend "
        "doesn't support fp8 kv_cache_dtype'); use --kv-cache-dtype auto",
        "vLLM {version} 在 ROCm 上的稀疏 MLA 不接受 fp8 KV 缓存（'ROCMAiterMLASparseBackend doesn't support "
        "fp8 kv_cache_dtype'）；请使用 --kv-cache-dtype auto"),
    "block.mla_hopper": (
        "MLA on Hopper from v0.18: FLASH_ATTN_MLA backend (16)",
        "v0.18 起 Hopper 上的 MLA：FLASH_ATTN_MLA 后端（16）"),
    "block.mla_hopper_flashmla": (
        "MLA on Hopper: FlashMLA backend (64), forced before v0.18 and taken since for an fp8 cache, which "
        "FLASH_ATTN_MLA cannot hold",
        "Hopper 上的 MLA：FlashMLA 后端（64），v0.18 之前强制使用，之后用于 FLASH_ATTN_MLA 放不下的 fp8 缓存"),
    "block.mla_blackwell_flashinfer": (
        "MLA on Blackwell (10.x) from v0.18: FLASHINFER_MLA backend (32)",
        "v0.18 起 Blackwell（10.x）上的 MLA：FLASHINFER_MLA 后端（32）"),
    "block.mla_blackwell_flashinfer_forced": (
        "MLA on Blackwell (10.x), v0.15 to v0.17: FLASHINFER_MLA backend, its block size forced to 64",
        "v0.15 至 v0.17 Blackwell（10.x）上的 MLA：FLASHINFER_MLA 后端，块大小强制为 64"),
    "block.mla_blackwell_cutlass": (
        "MLA on Blackwell: CUTLASS_MLA backend (128)",
        "Blackwell 上的 MLA：CUTLASS_MLA 后端（128）"),
    "block.mla_triton": (
        "MLA on this GPU: Triton MLA backend (16)",
        "该 GPU 上的 MLA：Triton MLA 后端（16）"),
    "block.default": (
        "default block size 16 (FlashAttention / FlashInfer / Triton)",
        "默认块大小 16（FlashAttention / FlashInfer / Triton）"),
    "block.default_64": (
        "default block size 64 from v0.34 (FlashAttention / FlashInfer / Triton; 16 before)",
        "v0.34 起默认块大小 64（FlashAttention / FlashInfer / Triton；此前为 16）"),
    "block.rocm_attn": (
        "block size 16: ROCm runs this model on ROCM_ATTN, which keeps 16-token blocks when v0.34's default "
        "grows to 64 (its native paged-attention kernel takes 16)",
        "块大小 16：ROCm 在 ROCM_ATTN 上运行该模型，v0.34 默认值增至 64 时它仍用 16 token 的块（其原生分页注意力 kernel 用 16）"),
    "block.mla_default_64": (
        "MLA on the {backend} backend, which takes v0.34's default 64-token blocks",
        "MLA 使用 {backend} 后端，它采用 v0.34 默认的 64 token 块"),
    "block.mm_prefix_composite": (
        "block size 64: the TRITON_FLASHINFER backend, which vLLM picks on compute capability 10.x for a "
        "model that attends fully over image tokens, takes only 64-token kernel blocks",
        "块大小 64：在计算能力 10.x 上，对图像 token 做全注意力的模型由 vLLM 选用 TRITON_FLASHINFER 后端，"
        "它只接受 64 个 token 的 kernel 块"),
    "block.rocm_unified": (
        "block size 64: on MI300X/MI325X/MI355X vLLM runs this model on ROCM_AITER_UNIFIED_ATTN (ROCM_ATTN "
        "takes no attention sinks, no KV connector and only heads of 32 to 256), which prefers 64-token "
        "blocks; this assumes AITER is installed, as in vLLM's ROCm images (without it Triton runs, with 16)",
        "块大小 64：在 MI300X/MI325X/MI355X 上，vLLM 用 ROCM_AITER_UNIFIED_ATTN 运行该模型（ROCM_ATTN 不支持 "
        "attention sink、KV connector，头大小只支持 32 到 256），它偏好 64 token 的块；前提是已安装 AITER，"
        "与 vLLM 的 ROCm 镜像一致（没有它时由 Triton 运行，块为 16）"),
    "block.raised_for_mamba": (
        "raised to {needed} so one attention page ({needed} × {token_bytes} B) covers a Mamba state "
        "page ({state:,} B)",
        "提高到 {needed}，使一个注意力页（{needed} × {token_bytes} B）能容纳一个 Mamba 状态页（{state:,} B）"),
    "note.chunked_local_full_length": (
        "vLLM turns the hybrid KV cache manager off for chunked local attention by default, so every "
        "layer is budgeted at full length (VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 to opt in)",
        "遇到分块局部注意力时，vLLM 默认关闭 hybrid KV cache manager，因此每一层都按完整长度计算"
        "（设置 VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 可开启）"),
    "note.mamba_page_padded": (
        "Mamba page padded by {pct:.2f}% to match the attention page",
        "Mamba 页补齐了 {pct:.2f}%，以与注意力页对齐"),
    # ---- vLLM versions (versions.py)
    "version.not_text": (
        "the vLLM version must be a release number such as 0.14.1",
        "vLLM 版本须为发行版本号，如 0.14.1"),
    "version.unparsed": (
        "vLLM version {value} is not a release number; write it as it appears in `vllm --version`, "
        "e.g. 0.14.1 or 0.28.0",
        "vLLM 版本 {value} 不是发行版本号；请按 `vllm --version` 的输出填写，如 0.14.1 或 0.28.0"),
    "version.dev_build": (
        "vLLM version {value} is a source build without a release tag; give the release it was built "
        "after (e.g. 0.17.0)",
        "vLLM 版本 {value} 是未打发行标签的源码构建；请填写它所基于的发行版（如 0.17.0）"),
    "version.out_of_range": (
        "vLLM version {value} is outside the range kvcalc models ({lo_major}.{lo_minor} to "
        "{hi_major}.{hi_minor}.x)",
        "vLLM 版本 {value} 超出了 kvcalc 支持的范围（{lo_major}.{lo_minor} 至 {hi_major}.{hi_minor}.x）"),
}
MESSAGES.update(CONFIG_MESSAGES)


class Text(str):
    """English text that also knows its message key and parameters.

    ``Text("settings.whole_number", value="'x'")`` equals ``"must be a whole number, got 'x'"``
    and ``.render("zh")`` gives the Chinese sentence with the same value.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, **params: Any) -> Text:
        self = super().__new__(cls, _render(key, "en", params))
        self.key = key
        self.params = params
        return self

    def render(self, lang: str) -> str:
        return _render(self.key, lang, self.params)


def join_texts(parts: list[str]) -> str:
    """``"a; b; c"``, kept translatable when the parts are :class:`Text`."""
    out = parts[0]
    for part in parts[1:]:
        out = Text("list.semicolon", first=out, then=part)
    return out


def register(messages: dict[str, tuple[str, str]]) -> None:
    """Add messages a module keeps next to the data they describe (the rule table in
    versions.py); a key may be registered once."""
    clash = set(messages) & set(MESSAGES)
    if clash:
        raise KeyError(f"message keys registered twice: {sorted(clash)}")
    MESSAGES.update(messages)


class Translated(Text):
    """A sentence whose two languages come from a data file (``notes`` / ``notes_zh`` in
    vllm_logs.json), not from :data:`MESSAGES`."""

    zh: str

    def __new__(cls, en: str, zh: str) -> Translated:
        self = str.__new__(cls, en)
        self.key, self.params, self.zh = "", {}, zh
        return self

    def render(self, lang: str) -> str:
        return self.zh if lang == "zh" else str(self)


def message_of(exc: BaseException) -> str:
    """An exception's message, still a :class:`Text` when it was raised with one."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Text) else str(exc)


def _render(key: str, lang: str, params: dict[str, Any]) -> str:
    template = MESSAGES[key][LANGUAGES.index(lang)]
    values = {k: v.render(lang) if isinstance(v, Text) else v for k, v in params.items()}
    return template.format(**values)


def template_fields(template: str) -> set[str]:
    """The field names a template uses: ``"{lo:,} to {hi}"`` -> {"lo", "hi"}."""
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def translations(reply: Any, lang: str = "zh") -> dict[str, str]:
    """Every :class:`Text` in a reply (dicts, lists, tuples), mapped English -> ``lang``."""
    found: dict[str, str] = {}
    stack = [reply]
    while stack:
        value = stack.pop()
        if isinstance(value, Text):
            found[str(value)] = value.render(lang)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return found
