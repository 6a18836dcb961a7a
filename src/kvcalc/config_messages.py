"""Messages about config.json problems (hf_config.py), unsupported models, dtypes, quantized
checkpoints vLLM refuses (quant_support.py), the catalog, Hugging Face fetches and checkpoint
folders, English and Chinese; see messages.py.

Each entry is ``key: (english_template, chinese_template)``; both templates use the same
``str.format`` fields. The English must stay byte-for-byte what the code printed before these
became :class:`~kvcalc.messages.Text` (tests match substrings of it).
"""

from __future__ import annotations

CONFIG_MESSAGES: dict[str, tuple[str, str]] = {
    "config.field": (
        "config.json field `{field}`: {problem}",
        "config.json 字段 `{field}`：{problem}"),

    # ---- config.json problems (hf_config.py): the ``problem`` of a ConfigError
    "config.missing": (
        "is required to size the KV cache but is missing",
        "缺失，但计算 KV cache 大小必须用到它"),
    "config.whole_number": (
        "must be a whole number, got {value}",
        "须为整数，收到的是 {value}"),
    "config.between": (
        "must be between {minimum} and {maximum}, got {value}",
        "须在 {minimum} 到 {maximum} 之间，收到的是 {value}"),
    "config.bool": (
        "must be true or false, got {value}",
        "须为 true 或 false，收到的是 {value}"),
    "config.string": (
        "must be a string, got {value}",
        "须为字符串，收到的是 {value}"),
    "config.list": (
        "must be a list, got {type}",
        "须为列表，收到的是 {type}"),
    "config.list_too_short": (
        "has {count} entries, fewer than the {layers} layers",
        "只有 {count} 项，少于层数 {layers}"),
    "config.object_got": (
        "must be a JSON object, got {type}",
        "须为 JSON 对象，收到的是 {type}"),
    "config.json_object": (
        "must be a JSON object",
        "须为 JSON 对象"),
    "config.object": (
        "must be an object",
        "须为对象"),
    "config.class_name": (
        "must be a class name string, got {value}",
        "须为类名字符串，收到的是 {value}"),
    "config.no_architecture": (
        "is missing, and so is model_type: this does not look like a Hugging Face model config",
        "缺失，model_type 也缺失：这看起来不是 Hugging Face 的模型配置"),
    "config.rope_factor": (
        "must be a finite scaling factor, got {value}",
        "须为有限的缩放因子，收到的是 {value}"),
    "config.rope_factor_range": (
        "({factor}) scales the maximum length {length:,} to {scaled:,} tokens, "
        "outside 1 to 100,000,000",
        "（{factor}）会把最大长度 {length:,} 放大到 {scaled:,} 个 token，"
        "超出 1 到 100,000,000 的范围"),
    "config.kv_heads_exceed": (
        "({kv_heads}) cannot exceed num_attention_heads ({heads})",
        "（{kv_heads}）不能大于 num_attention_heads（{heads}）"),
    "config.hidden_not_multiple": (
        "({hidden}) is not a multiple of num_attention_heads ({heads}); "
        "the config must give head_dim",
        "（{hidden}）不是 num_attention_heads（{heads}）的整数倍；配置中须写明 head_dim"),
    "config.hidden_below_heads": (
        "({hidden}) is smaller than num_attention_heads ({heads}), which would make head_dim 0; "
        "the config must give head_dim",
        "（{hidden}）小于 num_attention_heads（{heads}），会使 head_dim 为 0；配置中须写明 head_dim"),
    "config.unknown_layer_type": (
        "unknown layer type {value}",
        "未知的层类型 {value}"),
    "config.attn_type_code": (
        "must be 0 (a lightning-attention layer) or 1 (a softmax-attention layer), as MiniMax's config reads "
        "it; got {value}",
        "必须是 0（lightning attention 层）或 1（softmax attention 层），MiniMax 的配置按此读取；收到的是 {value}"),
    "config.dsv4_ratios_missing": (
        "missing: each DeepSeek-V4 layer's cache follows its compress ratio (0 or 1: the sliding window "
        "alone; 4 or 128: a compressed cache besides); copy the list from the checkpoint's config.json",
        "缺失：DeepSeek-V4 每层的缓存取决于它的压缩比（0 或 1：只有滑动窗口；4 或 128：另有压缩缓存）；"
        "请从 checkpoint 的 config.json 复制该列表"),
    "config.dsv4_ratio": (
        "must be 0, 1, 4 or 128, the compress ratios vLLM's DeepSeek-V4 builds; got {value}",
        "必须是 0、1、4 或 128，即 vLLM 的 DeepSeek-V4 支持的压缩比；收到的是 {value}"),
    "config.dsv4_expert_dtype": (
        "must be fp4 or fp8, the expert formats vLLM's DeepSeek-V4 reads ('Unsupported DeepSeek V4 "
        "expert_dtype'); got {value}",
        "必须是 fp4 或 fp8，即 vLLM 的 DeepSeek-V4 支持的专家格式（'Unsupported DeepSeek V4 expert_dtype'）；"
        "收到的是 {value}"),
    "config.dsv4_index_dim": (
        "must be a multiple of 128: the indexer keeps one float32 scale per 128 key values; got {value}",
        "必须是 128 的倍数：indexer 每 128 个键值保存一个 float32 缩放系数；收到的是 {value}"),
    "model.dsv4_no_ratio_4": (
        "a DeepSeek-V4 config without a layer of compress ratio 4: vLLM plans the windows and compressor "
        "states around those layers' pages (and asserts a page that holds them before v0.27), so kvcalc "
        "does not size this layout",
        "该 DeepSeek-V4 配置没有压缩比为 4 的层：vLLM 围绕这些层的页规划窗口与压缩器状态（v0.27 之前会断言存在能"
        "容纳它们的页），kvcalc 不计算这种布局"),
    "model.dsv4_entry": (
        "a DeepSeek-V4 config with head_dim {head_dim} and qk_rope_head_dim {rope}: vLLM's 584-byte "
        "fp8_ds_mla entry is written for 512 and 64, so kvcalc cannot size this cache",
        "该 DeepSeek-V4 配置的 head_dim 为 {head_dim}、qk_rope_head_dim 为 {rope}：vLLM 的 584 字节 fp8_ds_mla "
        "条目是按 512 与 64 编写的，kvcalc 无法计算此缓存"),
    "config.kda_layer_number": (
        "must hold layer numbers from 1 to {layers} (Kimi Linear counts its layers from 1), got {value}",
        "必须是 1 到 {layers} 的层序号（Kimi Linear 的层从 1 开始编号），收到的是 {value}"),
    "config.lfm2_attn_idxs": (
        "must be a list of layer numbers (whole numbers), as LFM2's config class reads it",
        "必须是层序号（整数）的列表，LFM2 的配置类按此读取"),
    "config.lfm2_moe_layer_types": (
        "missing: vLLM's LFM2-MoE config class has no default for it; list \"conv\" or "
        "\"full_attention\" for every layer",
        "缺失：vLLM 的 LFM2-MoE 配置类没有默认值；请为每一层写出 \"conv\" 或 \"full_attention\""),
    "config.lfm2_conv_dim": (
        "missing: vLLM's LFM2 sizes each convolution layer's state from conv_dim (the published "
        "LFM2 configs set it to hidden_size); add it",
        "缺失：vLLM 的 LFM2 按 conv_dim 确定每个卷积层的状态大小（已发布的 LFM2 配置都把它设为 "
        "hidden_size）；请补上"),
    "config.unknown_layer_code": (
        "unknown layer code {code} at {index}",
        "第 {index} 位是未知的层代码 {code}"),
    "config.kv_shared_too_many": (
        "({shared}) must be smaller than num_hidden_layers ({layers})",
        "（{shared}）须小于 num_hidden_layers（{layers}）"),
    "config.kv_shared_no_source": (
        "layer {layer} has no earlier layer of its kind to share a cache with",
        "第 {layer} 层之前没有同类型的层可共享缓存"),
    "config.gemma4_layer_types": (
        "is required for Gemma 4 configs",
        "Gemma 4 配置必须提供该字段"),
    "config.nemotron_h_pattern": (
        "is required for Nemotron-H",
        "Nemotron-H 必须提供该字段"),
    "config.too_many_layers": (
        "has {count:,} layers, more than the 10,000 kvcalc accepts",
        "共 {count:,} 层，超过 kvcalc 支持的上限 10,000 层"),
    "config.state_dtype": (
        "{value} is not a state dtype; use one of {choices}",
        "{value} 不是可用的状态 dtype；请使用 {choices} 之一"),
    "config.positive_number": (
        "must be a positive number, got {value}",
        "须为正数，收到的是 {value}"),
    "config.divides": (
        "must divide {total} evenly: Zamba2's config class derives the head size from that width (2 × "
        "hidden_size for attention, mamba_expand × hidden_size for the mixer); got {value}",
        "必须能整除 {total}：Zamba2 的配置类用这个宽度推出头大小（注意力为 2 × hidden_size，混合器为 mamba_expand × "
        "hidden_size）；收到的是 {value}"),
    "config.heads_divisor": (
        "must be a positive divisor of num_attention_heads ({heads}), got {value}",
        "须为 num_attention_heads（{heads}）的正约数，收到的是 {value}"),
    "config.empty": (
        "is empty",
        "为空"),
    "config.fraction": (
        "must be a number in (0, 1], got {value}",
        "须为 (0, 1] 区间内的数，收到的是 {value}"),
    "config.layer_index": (
        "must be a layer index, got {value}",
        "须为层序号，收到的是 {value}"),

    # ---- models kvcalc does not size (hf_config.py): UnsupportedModelError
    "model.unsupported": (
        "kvcalc does not reproduce {what} yet (model_type {model_type}); "
        "no number is better than a wrong one",
        "kvcalc 暂不支持 model_type {model_type}，尚不能复现：{what}；宁可不给数字，也不给错误的数字"),
    "model.zamba2_old_config": (
        "kvcalc does not size this Zamba2 config: it is the first format (layer codes 'm'/'g', state_size), "
        "whose keys transformers' Zamba2Config does not read, so vLLM would build the model without its "
        "attention; use the checkpoint's current config.json (layers_block_type of 'mamba'/'hybrid')",
        "kvcalc 不估算这个 Zamba2 配置：它是最初的格式（层代码 'm'/'g'、state_size），transformers 的 Zamba2Config "
        "不读取这些键，vLLM 会构建出没有注意力层的模型；请使用该检查点当前的 config.json（layers_block_type 为 "
        "'mamba'/'hybrid'）"),
    "model.jamba_sliding_window": (
        "kvcalc does not size a Jamba config with a sliding window (sliding_window {value}): vLLM's Jamba "
        "attention takes none of its own, so what the cache would do with it is not read",
        "kvcalc 不估算带滑动窗口的 Jamba 配置（sliding_window {value}）：vLLM 的 Jamba 注意力层自身不接受滑动窗口，"
        "缓存会如何处理它没有核对"),
    "model.bamba": (
        "kvcalc does not reproduce Bamba yet (model_type 'bamba')",
        "kvcalc 暂不能复现 Bamba（model_type 'bamba'）"),
    "model.qwen2_partial_sliding": (
        "vLLM refuses Qwen2-style configs that slide the window on only some layers "
        "(max_window_layers < num_hidden_layers); set use_sliding_window to false",
        "vLLM 不接受只在部分层使用滑动窗口的 Qwen2 类配置"
        "（max_window_layers < num_hidden_layers）；请把 use_sliding_window 设为 false"),
    "model.no_cache_layers": (
        "this config has no layer with a KV cache or state",
        "该配置中没有任何带 KV cache 或状态的层"),
    "model.note_attention_only_hybrid": (
        "all layers are attention, but vLLM before v0.11.1 still raises the attention block size to "
        "cover the Mamba state the model class declares",
        "所有层都是注意力层，但 v0.11.1 之前的 vLLM 仍会调大注意力块大小，以容纳模型类声明的 Mamba 状态"),
    # what ``model.unsupported`` cannot reproduce (hf_config._UNSUPPORTED)
    "model.reason.speculators": (
        "speculators-format drafters other than EAGLE-3 and PEagle",
        "EAGLE-3 与 PEagle 以外的 speculators 格式草稿模型"),
    "model.reason.dsv4_vision": (
        "DeepSeek-V4's vision model (its encoder and the experts' vision gates)",
        "DeepSeek-V4 的视觉模型（其编码器与专家的视觉门控）"),
    "model.reason.encoder_decoder": (
        "encoder-decoder cross-attention",
        "编码器-解码器模型的交叉注意力"),
    "model.reason.attention_free": (
        "attention-free {model} models",
        "无注意力的 {model} 模型"),
    "model.reason.state_layers": (
        "the recurrent-state layers (Mamba, linear attention or short convolution) of {model}",
        "{model} 的递归状态层（Mamba、线性注意力或短卷积）"),
    "model.reason.layout_indexer": (
        "{model}'s sparse-attention cache (an indexer's keys beside the attention cache)",
        "{model} 的稀疏注意力缓存（注意力缓存之外还有 indexer 的键）"),
    "model.reason.layout_indexer_compressed": (
        "{model}'s compressed KV cache with a sparse-attention indexer",
        "{model} 带稀疏注意力 indexer 的压缩 KV 缓存"),
    "model.reason.layout_kda_compressed": (
        "{model}'s KDA linear-attention state beside a compressed sparse-attention cache",
        "{model} 的 KDA 线性注意力状态及压缩的稀疏注意力缓存"),
    "model.reason.layout_conv_compressed": (
        "{model}'s compressed sparse-attention cache with GDN and short-convolution state",
        "{model} 的压缩稀疏注意力缓存及 GDN、短卷积状态"),
    "model.reason.layout_kda_mla": (
        "{model}'s KDA linear-attention state beside MLA layers",
        "{model} 与 MLA 层并存的 KDA 线性注意力状态"),
    "model.reason.layout_conv_sliding": (
        "{model}'s short-convolution state beside sliding-window attention",
        "{model} 与滑动窗口注意力并存的短卷积状态"),
    "model.layer_geometry_fields": (
        "this config carries {field}: some of its layers keep a cache of their own shape (KV heads, head "
        "size, latent width or state), which kvcalc does not read for model_type {model_type}; sized with "
        "one shape for every layer the pool would be wrong, so it is not estimated",
        "该配置含有 {field}：其中部分层的缓存形状不同（KV 头数、头大小、潜变量宽度或状态），而 kvcalc 对 model_type "
        "{model_type} 不读取这些；若所有层按同一形状估算，缓存池会是错的，因此不做估算"),
    "model.state_fields": (
        "this config carries {field}, a field of models with recurrent-state layers (Mamba, linear "
        "attention), which kvcalc does not read for model_type {model_type}: sized as attention alone the "
        "pool would be wrong, so it is not estimated",
        "该配置含有 {field}，这是带递归状态层（Mamba、线性注意力）的模型才有的字段，而 kvcalc 对 model_type "
        "{model_type} 不读取它：只按注意力层估算会得到错误的缓存池，因此不做估算"),
    "model.reason.encoder_only": (
        "encoder-only models (vLLM keeps no KV cache for them)",
        "纯编码器模型（vLLM 不为其保留 KV cache）"),

    # ---- --kv-cache-dtype (dtypes.py): SettingsError problems
    "dtype.unknown_kv": (
        "{value} is not a vLLM KV cache dtype; choose one of {choices}",
        "{value} 不是 vLLM 的 KV cache 数据类型；可选：{choices}"),
    "dtype.fp8_inc": (
        "fp8_inc is the cache type of Intel Gaudi (vLLM's HPU plugin): no CUDA or ROCm attention backend of "
        "vLLM {version} keeps it, so it stops with 'No valid attention backend'. Use fp8 (fp8_e4m3) instead",
        "fp8_inc 是 Intel Gaudi（vLLM 的 HPU 插件）的缓存类型：vLLM {version} 的 CUDA 与 ROCm 注意力后端都不支持它，"
        "启动时会报 'No valid attention backend'。请改用 fp8（fp8_e4m3）"),
    "dtype.mla_e5m2": (
        "no MLA attention backend of vLLM {version} keeps fp8_e5m2 (on ROCm only AITER's MLA does, with "
        "VLLM_ROCM_USE_AITER=1), so it stops with 'No valid attention backend'. Use fp8 (fp8_e4m3)",
        "vLLM {version} 的 MLA 注意力后端都不支持 fp8_e5m2（ROCm 上只有启用 VLLM_ROCM_USE_AITER=1 的 AITER MLA 支持），"
        "启动时会报 'No valid attention backend'。请使用 fp8（fp8_e4m3）"),
    "dtype.ds_mla_dense": (
        "fp8_ds_mla is the layout of the sparse-MLA backends (DeepSeek-V3.2, GLM-5); vLLM {version} has no "
        "backend that keeps it for a dense MLA model. Use fp8 or auto",
        "fp8_ds_mla 是稀疏 MLA 后端（DeepSeek-V3.2、GLM-5）的布局；vLLM {version} 没有为稠密 MLA 模型保存它的后端。"
        "请使用 fp8 或 auto"),
    "dtype.float_kv_mismatch": (
        "{name} does not match the model's dtype ({model}): vLLM {version} refuses it. Use {allowed}",
        "{name} 与模型的 dtype（{model}）不一致：vLLM {version} 会拒绝。请改用 {allowed}"),
    "dtype.needs_version": (
        "{name} needs vLLM {since} or newer ({pr}); you chose {version}",
        "{name} 需要 vLLM {since} 或更高版本（{pr}）；当前选择的是 {version}"),
    "dtype.mla_only": (
        "fp8_ds_mla is only for DeepSeek-style MLA models (sparse MLA); use fp8 instead",
        "fp8_ds_mla 仅适用于 DeepSeek 类 MLA 模型（稀疏 MLA）；请改用 fp8"),

    # ---- quantized checkpoints vLLM refuses to load (quant_support.py): SettingsError problems
    "quant.min_capability": (
        "vLLM {version} does not load {label} weights on {gpu} (compute capability {have}): the method "
        "needs {need:.1f} or newer, and vLLM stops at start-up with “… is not supported for the current GPU. "
        "Minimum capability: {need_int}. Current capability: {have_int}.” Choose a GPU of compute capability "
        "{need:.1f} or newer, or a checkpoint in another format",
        "vLLM {version} 不能在 {gpu}（计算能力 {have}）上加载 {label} 权重：该方法需要 {need:.1f} 或更高，vLLM 启动时会报错"
        "`… is not supported for the current GPU. Minimum capability: {need_int}. Current capability: "
        "{have_int}.`。请选择计算能力 {need:.1f} 或更高的 GPU，或换用其他格式的检查点"),
    "quant.scheme_capability": (
        "vLLM {version} does not load {label} weights on {gpu} (compute capability {have}): the scheme needs "
        "{need:.1f} or newer, and vLLM stops while building the layers with “Quantization scheme is not supported "
        "for the current GPU” (minimum {need_int}, current {have_int}). Choose a GPU of compute capability "
        "{need:.1f} or newer, or a checkpoint in another format",
        "vLLM {version} 不能在 {gpu}（计算能力 {have}）上加载 {label} 权重：该方案需要 {need:.1f} 或更高，vLLM 在构建各层时会报错"
        " `Quantization scheme is not supported for the current GPU`（最低 {need_int}，当前 {have_int}）。"
        "请选择计算能力 {need:.1f} 或更高的 GPU，或换用其他格式的检查点"),
    "quant.marlin_only": (
        "vLLM {version} does not load GPTQ weights on {gpu} (compute capability {have}): from v{since} GPTQ "
        "checkpoints always run on Marlin kernels, which need {need:.1f} or newer, and vLLM stops while building "
        "the layers with “Marlin does not support weight_bits = … Only types = [] are supported”. Choose a GPU "
        "of compute capability {need:.1f} or newer, an earlier release, or an unquantized checkpoint",
        "vLLM {version} 不能在 {gpu}（计算能力 {have}）上加载 GPTQ 权重：从 v{since} 起 GPTQ 检查点一律使用 Marlin 内核，"
        "它需要 {need:.1f} 或更高，vLLM 在构建各层时会报错 `Marlin does not support weight_bits = … Only types = [] "
        "are supported`。请选择计算能力 {need:.1f} 或更高的 GPU、更早的版本，或未量化的检查点"),
    "quant.removed": (
        "vLLM {version} no longer loads {method} checkpoints (the method was removed in v{since}; vLLM stops "
        "with “Unknown quantization method: {method}”). Choose an earlier release, or an AWQ, GPTQ or "
        "FP8 checkpoint",
        "vLLM {version} 已不再加载 {method} 检查点（该方法在 v{since} 中移除；vLLM 会报错"
        "`Unknown quantization method: {method}`）。请选择更早的版本，或换用 AWQ、GPTQ 或 FP8 检查点"),

    # ---- the GPU and model catalogs (catalog.py): CatalogError
    "catalog.gpus_malformed": (
        "gpus.json is malformed: {error}",
        "gpus.json 格式有误：{error}"),
    "catalog.models_malformed": (
        "models.json is malformed: {error}",
        "models.json 格式有误：{error}"),
    "catalog.unknown_gpu": (
        "unknown GPU {query}. {hint}",
        "未知的 GPU {query}。{hint}"),
    "catalog.class_datacenter": ("Data centre", "数据中心"),
    "catalog.class_unified": ("Unified memory (DGX Spark, Jetson)", "统一内存（DGX Spark、Jetson）"),
    "catalog.class_workstation": ("Workstation (RTX PRO, Ada, A-series)", "工作站（RTX PRO、Ada、A 系列）"),
    "catalog.class_geforce": ("GeForce desktop", "GeForce 台式机"),
    "catalog.class_laptop": ("Laptop", "笔记本"),
    "catalog.class_amd": ("AMD", "AMD 显卡"),
    "catalog.gpu_suggestions": (
        "Did you mean: {names}?",
        "你要找的是不是：{names}？"),
    "catalog.gpu_list_hint": (
        "Run `kvcalc gpus` for the list, or pass --gpu-memory-gib for another GPU.",
        "运行 `kvcalc gpus` 查看列表；不在列表中的 GPU 请用 --gpu-memory-gib 指定显存。"),

    # ---- fetching from Hugging Face (hub.py): HubError
    "hub.bad_id": (
        "'{model}' is neither a folder on this machine nor a Hugging Face model id (owner/name in letters, "
        "digits, '-', '_' and '.', as in Qwen/Qwen3-8B); check it, or pass --config PATH to a config.json",
        "'{model}' 既不是本机上的文件夹，也不是 Hugging Face 模型 id（owner/name，由字母、数字、'-'、'_' 和 '.' 组成，"
        "如 Qwen/Qwen3-8B）；请检查，或用 --config PATH 指定一个 config.json"),
    "hub.token_refused": (
        "Hugging Face refused the token in HF_TOKEN for {model} (HTTP 401): check that it is valid and has "
        "access to this repository, or unset HF_TOKEN for a public one",
        "Hugging Face 拒绝了 HF_TOKEN 中的 token（{model}，HTTP 401）：请确认它有效且有权访问该仓库；"
        "公开仓库可以不设置 HF_TOKEN"),
    "hub.gated": (
        "{model} is gated: accept its licence on huggingface.co and set HF_TOKEN to a token "
        "with access",
        "{model} 是受限（gated）仓库：请先在 huggingface.co 上接受其许可协议，"
        "再把 HF_TOKEN 设为有访问权限的 token"),
    "hub.not_found": (
        "{model} was not found on Hugging Face (check the id, or set HF_TOKEN for a private "
        "repository)",
        "在 Hugging Face 上找不到 {model}（请检查 id；私有仓库需设置 HF_TOKEN）"),
    "hub.no_config": (
        "{model} has no config.json at its top level",
        "{model} 的仓库根目录下没有 config.json"),
    "hub.fetch_failed": (
        "could not fetch {model} from Hugging Face ({error_type}: {error}); check your network, "
        "or pass --config PATH",
        "无法从 Hugging Face 获取 {model}（{error_type}：{error}）；请检查网络，"
        "或用 --config PATH 指定配置文件"),
    "hub.http_status": (
        "could not fetch {model}: Hugging Face answered HTTP {status} for {file}; try again later, or pass "
        "--config PATH to a config.json",
        "无法获取 {model}：Hugging Face 对 {file} 返回了 HTTP {status}；请稍后重试，或用 --config PATH 指定一个 config.json"),
    "hub.bad_file": (
        "the {file} of {model} on Hugging Face is not a JSON object kvcalc can read (malformed, or nested too "
        "deep); pass --config PATH to a config.json you have checked",
        "Hugging Face 上 {model} 的 {file} 不是 kvcalc 能读取的 JSON 对象（格式错误或嵌套过深）；"
        "请用 --config PATH 指定一个检查过的 config.json"),
    "hub.too_large": (
        "the {file} of {model} on Hugging Face is larger than {limit:,} bytes, far beyond any config; pass "
        "--config PATH to a config.json",
        "Hugging Face 上 {model} 的 {file} 超过 {limit:,} 字节，远大于任何配置文件；请用 --config PATH 指定一个 config.json"),

    # ---- a checkpoint folder on this machine (local_checkpoint.py)
    "local.no_config": (
        "the folder {path} has no config.json: point at the checkpoint's folder (the one vllm serve is "
        "given), or pass --config PATH to a config.json",
        "文件夹 {path} 中没有 config.json：请指向检查点所在的文件夹（即传给 vllm serve 的那个），"
        "或用 --config PATH 指定一个 config.json"),
    "local.not_object": (
        "{path} is not a JSON object; a model's config.json is one",
        "{path} 不是 JSON 对象；模型的 config.json 应当是一个 JSON 对象"),
    "local.too_large": (
        "{path} is larger than {limit:,} bytes, far beyond any config; pass --config PATH to a config.json",
        "{path} 超过 {limit:,} 字节，远大于任何配置文件；请用 --config PATH 指定一个 config.json"),
    "local.bad_config": (
        "cannot read {path}: {error}",
        "无法读取 {path}：{error}"),
}
