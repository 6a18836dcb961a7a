"""A pasted ``vllm serve`` command (or a notebook's ``LLM(...)`` call, llmcall.py) read into kvcalc's
settings: the page fills its form from it, as it does from a startup log, so a user can start from
the command they already run.

Reads ``vllm serve MODEL --flag value …`` (line continuations and environment assignments in
front included), ``python -m vllm.entrypoints.openai.api_server --model MODEL …`` and
``docker run … vllm/vllm-openai[:tag] --model MODEL …`` (``-e VAR=value`` kept). Flags are vLLM's
spellings (settings.VLLM_SPELLING, the short -tp/-pp/-dcp/-q/-sc/-ac, the --no- switches, dotted
``--speculative-config.method``, ``--attention-config.backend``, ``--hf-overrides.KEY``;
VLLM_ATTENTION_BACKEND where the release may still read it), read after vLLM's own rewriting
(vllm_flags.as_vllm_parses: --max_model_len is --max-model-len); values stay as typed where the core
validates them, so a bad one is named when the page computes. Flags kvcalc has no setting for are
sorted by vllm_flags. The shell's part (where the command ends, variables, ``sh -c`` scripts) is
shelltext.py's.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import fields
from typing import Any

from . import textdepth
from .containerspec import container_command, image_of, is_container_spec
from .errors import SettingsError, VersionError
from .llmcall import CallTooIntricate, has_llm_call, read_llm_call
from .messages import Text
from .settings import (BACKEND_ALIASES, BACKEND_VARIABLE, ENV_SETTINGS, FORCED_BACKENDS, KV_CONNECTORS, VLLM_SPELLING,
                       Settings)
from .shelltext import SHELL_VARIABLE, command_end, expand_variables, script_of
from .versions import Rule, Version, applies, parse_version
from .vllm_flags import (SPEC_SHORTHAND, as_vllm_parses, config_flag, dotted_json, dotted_value, free_words,
                         is_flag, moe_backend_marlin, nest_dotted, read_config, sort_environment, sort_unknown,
                         value_words)
from .weights import VLLM_QUANTIZATION_FORMATS

_BY_FLAG = {flag: name for name, flag in VLLM_SPELLING.items() if flag.startswith("-")}
_BY_FLAG.update({"-tp": "tensor_parallel_size", "-pp": "pipeline_parallel_size", "-dp": "data_parallel_size",
                 "-ep": "enable_expert_parallel",
                 "-dcp": "decode_context_parallel_size", "--kv-cache-memory": "kv_cache_memory_bytes",
                 "-sc": "speculative", "--device-memory-utilization": "gpu_memory_utilization",
                 "--cuda-graph-sizes": "cudagraph_capture_sizes"})    # v0.12's deprecated spelling
_BY_ENV = {var: name for name, var in ENV_SETTINGS.items()}
REMOVED_ENVIRONMENT = {"VLLM_MARLIN_INPUT_DTYPE": Rule.MARLIN_INPUT_DTYPE_REMOVED}
"""Variables a release refuses to start with (vllm/envs.py ``removed_environment_variables``): from the
rule's release a pasted command that sets one is refused with the reason; before it they only pick a
kernel's input type (vllm_flags.ENV_WITHOUT_MEMORY)."""
ENGINE_VARIABLE = "VLLM_USE_V1"
"""Set to 0, v0.10 runs its older V0 engine (vllm/engine/arg_utils.py create_engine_config: ``use_v1 =
False``), whose memory profile kvcalc does not model; from v0.11.0 only the V1 engine exists
(Rule.V1_ENGINE_ALWAYS: vllm/engine/llm_engine.py aliases V1's LLMEngine) and v0.11.1 drops the variable."""
DEFAULT_MODEL = "Qwen/Qwen3-0.6B"
"""What vLLM serves when nothing names a model: ModelConfig.model's default (vllm/config.py in v0.10,
vllm/config/model.py from v0.11 to v0.34)."""
NO_COMPILE_CACHE = "VLLM_DISABLE_COMPILE_CACHE"
"""Set to 1, vLLM neither loads nor keeps its torch.compile artifacts (vllm/compilation/decorators.py,
compiler_interface.py is_compile_cache_enabled; v0.10 to v0.34), so every start compiles inside the
profile like a first start: a pasted command with it reads as compile cache "cold"."""
_FLAG_TYPES = {f.name: f.type for f in fields(Settings) if VLLM_SPELLING.get(f.name, "").startswith("-")}
_SWITCHES = {name for name, kind in _FLAG_TYPES.items() if kind in ("bool", "bool | None")}
_VLLM_SWITCHES = sorted(name for name in _SWITCHES      # not the MXFP4 indexer, a key of --attention-config
                        if VLLM_SPELLING[name].startswith("--") and config_flag(VLLM_SPELLING[name]) is None)
SWITCH_OFF_FORMS = {"--no-" + VLLM_SPELLING[name][2:]: name for name in _VLLM_SWITCHES}
SWITCH_OFF_FORMS.update({twin + VLLM_SPELLING[name][len(prefix):]: name for name in _VLLM_SWITCHES
                         for prefix, twin in (("--enable-", "--disable-"), ("--disable-", "--enable-"))
                         if VLLM_SPELLING[name].startswith(prefix)})
"""The off forms of kvcalc's switches as vLLM spells them: every one is argparse's BooleanOptionalAction
(vllm/engine/arg_utils.py, v0.10 to v0.34), so --no-enforce-eager turns it off; from v0.34 its
EnableDisableAction also pairs --enable-X with --disable-X (vllm/utils/argparse_utils.py:
--disable-prefix-caching is --no-enable-prefix-caching, --enable-custom-all-reduce is
--no-disable-custom-all-reduce). kvcalc reads a twin in a line for any release: earlier ones refuse to
start with it, and what it asks for is plain."""
_INTS = {name for name, kind in _FLAG_TYPES.items() if kind in ("int", "int | None")}
_FLOATS = {name for name, kind in _FLAG_TYPES.items() if kind in ("float", "float | None")}
_ENV = re.compile(r"([A-Z][A-Z0-9_]*)=(.*)", re.S)
_IMAGE_TAG = re.compile(r"vllm/vllm-openai(?:-rocm)?:v?([0-9]+\.[0-9]+\.[0-9]+)(?:\.[0-9]+|rc[0-9]+)?(?:[-@][^\s/]*)?$")
"""The release of a vllm/vllm-openai (or -rocm) image tag: v0.20.0, v0.10.1.1 (a post-release of 0.10.1, as
the page's release list has it), v0.22.1rc1 (read as 0.22.1), with an architecture or CUDA suffix
(-aarch64, -cu130) or a digest (@sha256:…)."""
MAX_COMMAND_CHARS = 20_000
_PROGRAM = re.compile(r"\bvllm\s+serve\b|vllm\.entrypoints\.openai\.api_server|vllm/vllm-openai")


def read_command(text: str, assumed_release: str | None = None) -> dict[str, Any]:
    """The model, the settings (kvcalc's names), the flags ignored or refused and the kind ("serve",
    or "llm" for a notebook's LLM(...) call: _read_llm_call) of a pasted command, and ``fails``: why
    vLLM would refuse to start with the line as written, judged for the release an image tag names,
    else ``assumed_release`` (the form's), else the newest; SettingsError on field "log" when the
    text holds no command (as for a log with nothing to read), on "command" when it cannot be read."""
    image = None
    if isinstance(text, str) and len(text) <= MAX_COMMAND_CHARS and is_container_spec(text):
        image = image_of(text)
        text = container_command(text)      # a Compose service or Kubernetes container, as the line it runs
    if not isinstance(text, str) or not (_PROGRAM.search(text) or has_llm_call(text)):
        raise SettingsError({"log": Text("command.none")})     # whatever it is, no server command
    if len(text) > MAX_COMMAND_CHARS:
        raise SettingsError({"command": Text("command.too_long", limit=MAX_COMMAND_CHARS)})
    if not _PROGRAM.search(text):
        return _read_llm_call(text)
    tag = _IMAGE_TAG.search(image) if image else None
    return _read_line(text, {}, tag.group(1) if tag else None, assumed_release)


def _read_line(joined: str, outer_env: dict[str, str], outer_release: str | None,
               assumed_release: str | None) -> dict[str, Any]:
    """read_command for one line (continuations joined). A shell that runs the server as a script
    (``bash -c "pip install … && vllm serve …"``, a container spec whose command is ``/bin/sh -c``) is
    read through to the script, with the assignments and the image's release around it."""
    joined = _CONTINUATION.sub(" ", joined)
    try:
        whole = shlex.split(joined, comments=True)
    except ValueError:
        whole = []
    k = script_of(whole, _PROGRAM)
    if k is not None:
        _, around, release, _ = _after_program(whole[:k - 1] + ["vllm", "serve"])
        return _read_line(whole[k], {**outer_env, **around}, release or outer_release, assumed_release)
    joined = joined[:command_end(joined, _PROGRAM.search(joined).end())]
    try:
        tokens = shlex.split(joined, comments=True)
    except ValueError as exc:
        raise SettingsError({"command": Text("command.quotes", error=str(exc)[:80])}) from exc
    args, env, release, program = _after_program(tokens)
    if args is None:
        raise SettingsError({"log": Text("command.none")})
    env = {**outer_env, **env}
    release = release or outer_release       # a spec's image, or the image around a shell script
    args, unexpanded = expand_variables(args, env)
    out = _read_args(args, env, release, "serve", entry_point(program, release), assumed_release)
    out["unexpanded"] = _leave_unexpanded(out, unexpanded) if unexpanded else []
    return out


def _leave_unexpanded(out: dict[str, Any], names: list[str]) -> list[str]:
    """Take what a variable the text does not assign would set out of ``out`` (the model, a setting, a
    word left over), so the form keeps its own, and return the variables that mattered (one in a flag
    kvcalc ignores, such as --served-model-name "$NAME", does not)."""
    words: list[str] = []
    if out["model"] is not None and SHELL_VARIABLE.search(out["model"]):
        words.append(out["model"])
        out["model_ignored"] = {"word": out["model"], "why": Text("command.model_variable", word=out["model"])}
        out["model"] = None
    kept = {}
    for key, value in out["settings"].items():
        if isinstance(value, str) and SHELL_VARIABLE.search(value):
            words.append(value)
        else:
            kept[key] = value
    out["settings"] = kept
    words += [w for w in out["unknown"] if SHELL_VARIABLE.search(w)]
    out["unknown"] = [w for w in out["unknown"] if not SHELL_VARIABLE.search(w)]
    return [name for name in names if any(name in w for w in words)]


def _read_llm_call(text: str) -> dict[str, Any]:
    """A pasted LLM(...) call (llmcall.py) read as the serve line its keyword arguments spell, on
    the LLM class's entry point; arguments whose value is not a literal are named as left out."""
    try:
        call = read_llm_call(text)
    except CallTooIntricate:
        raise SettingsError({"command": Text("command.llm_intricate", depth=textdepth.LITERAL_MAX_DEPTH,
                                             steps=textdepth.EXPRESSION_MAX_STEPS)}) from None
    if call is None:
        raise SettingsError({"command": Text("command.llm_unreadable")})
    out = _read_args(_llm_tokens(call.kwargs), {}, None, "llm")
    out["model"] = call.model
    out["refused"].update({name: Text("command.llm_value") for name in call.unread})
    out["unexpanded"] = []       # a name instead of a literal is named as refused instead
    return out


def _llm_tokens(kwargs: dict[str, Any]) -> list[str]:
    """The serve-line tokens of LLM(...) keyword arguments: True is the switch, False its --no- form
    where vLLM has one (else the default), None nothing, a list or dict its JSON, an integer
    compilation_config the optimization level (vllm/entrypoints/llm.py)."""
    tokens: list[str] = []
    for name, value in kwargs.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False and "--no-" + flag[2:] not in SWITCH_OFF_FORMS:
            continue
        if value is True or value is False:
            tokens.append(flag if value else "--no-" + flag[2:])
        elif name == "compilation_config" and isinstance(value, int):
            tokens += ["-O", str(value)]
        elif isinstance(value, (dict, list, tuple)):
            tokens += [flag, json.dumps(value)]
        else:
            tokens += [flag, str(value)]
    return tokens


def _read_args(args: list[str], env: dict[str, str], release: str | None, kind: str,
               entry: str = "serve", assumed_release: str | None = None) -> dict[str, Any]:
    """The model, the settings and the flags ignored, refused or unknown of a serve line's arguments
    (``kind`` "serve", run by ``entry``: entry_point), or of an LLM(...) call's (``kind`` "llm", whose
    entry point has its own batch defaults: the caller sets the entrypoint setting from it and names
    the model). The model follows vLLM's reading of the line (_serve_model)."""
    raw = args
    args = as_vllm_parses(args)
    settings: dict[str, Any] = {"vllm_version": release} if release else {}
    for var, value in env.items():
        if var in _BY_ENV:
            name = _BY_ENV[var]
            settings[name] = value if name == "rocm_quick_reduce" else value.strip().lower() in ("1", "true")
        elif var == NO_COMPILE_CACHE and value.strip().lower() in ("1", "true"):
            settings["compile_cache"] = "cold"
    env_backend = env.get(BACKEND_VARIABLE)
    env_ignored = bool(env_backend) and _release_at_least(release, Rule.ATTENTION_BACKEND_ENV_DROPPED)
    if env_backend and not env_ignored:
        settings["attention_backend"] = env_backend      # a flag given too wins below
    model_tag = None         # the first word no flag takes: vllm serve MODEL, wherever it stands
    model_flags: list[str | None] = []       # the values of --model, in order
    free = set(free_words(args, lambda flag, _following: serve_value_words(flag)))
    spec: dict[str, Any] = {}
    rest: list[str] = []             # the flags kvcalc does not read, each with the words it takes
    strays: list[str] = []           # words no flag takes, after the model
    unread: dict[str, Any] = {}      # compilation-config keys kvcalc does not model, by flag
    by_key: dict[str, dict[str, Any]] = {}     # JSON settings given key by key (vllm_flags.DOTTED_JSON)
    i = 0
    while i < len(args):
        token = args[i]
        if not is_flag(token):
            if i in free and model_tag is None:
                model_tag = token
            elif i in free:
                strays.append(token)
            else:      # a value of a flag kvcalc does not read
                rest.append(token)
            i += 1
            continue
        flag, eq, inline = token.partition("=")
        dotted = dotted_json(flag)
        if dotted is not None:       # --hf-overrides.KEY …: replaces the JSON form, as in vLLM
            value, i = _value(args, i, eq, inline)
            nest_dotted(by_key.setdefault(dotted[0], {}), dotted[1], dotted_value(value))
            continue
        if flag.startswith(("--speculative-config.", "-sc.")) or flag in SPEC_SHORTHAND:
            value, i = _value(args, i, eq, inline)
            key = SPEC_SHORTHAND.get(flag) or flag.split(".", 1)[1].replace("-", "_")
            spec[key] = _scalar(value)
            continue
        if flag == "--kv-transfer-config" or flag.startswith("--kv-transfer-config."):
            value, i = _value(args, i, eq, inline)
            connector = _json(value).get("kv_connector") if flag == "--kv-transfer-config" else \
                value if flag == "--kv-transfer-config.kv_connector" else None
            if connector in KV_CONNECTORS:
                settings["kv_connector"] = connector
            elif flag == "--kv-transfer-config" or connector is not None:
                unread["--kv-transfer-config"] = Text("flags.kv_connector")
            continue      # another key given on its own (kv_role, kv_buffer_device…) moves no memory
        if flag == "--moe-backend":
            value, i = _value(args, i, eq, inline)
            if moe_backend_marlin(value):
                settings["mxfp4_marlin"] = True
            else:
                rest.append(flag)     # the release's kernel choice stands: ignored
            continue
        config = config_flag(flag)
        if config is not None:
            which, key = config
            value, i = _value(args, i, eq, inline)
            read, why = read_config(which, {key: dotted_value(value)} if key else value)
            settings.update(read)
            if why is not None:
                unread[flag.split(".", 1)[0]] = why
            continue
        if flag in ("--model",):
            value, i = _value(args, i, eq, inline)
            model_flags.append(value)
            continue
        if flag in ("--quantization", "-q"):
            value, i = _value(args, i, eq, inline)
            settings["weights"] = VLLM_QUANTIZATION_FORMATS.get(str(value).lower(), value)
            continue
        if flag in SWITCH_OFF_FORMS:
            settings[SWITCH_OFF_FORMS[flag]] = False
            i += 1
            continue
        name = _BY_FLAG.get(flag)
        if name is None or name in ENV_SETTINGS:
            rest.append(token)     # its value words follow as words no flag of kvcalc's takes
            i += 1
            continue
        if name in _SWITCHES:
            settings[name] = True
            i += 1
            continue
        if name == "cudagraph_capture_sizes" and not eq:     # --cuda-graph-sizes too
            sizes = []
            i += 1
            while i < len(args) and not is_flag(args[i]):
                sizes.append(args[i])
                i += 1
            settings[name] = " ".join(sizes)
            continue
        value, i = _value(args, i, eq, inline)
        settings[name] = _typed(name, value)
    if spec:
        settings["speculative"] = json.dumps({**_json(settings.get("speculative")), **spec})
    for name, keys in by_key.items():
        settings[name] = json.dumps(keys)
    ignored, refused, strange = sort_unknown(rest)
    strange += strays
    removed = [var for var in env if var in REMOVED_ENVIRONMENT and
               _release_at_least(release, REMOVED_ENVIRONMENT[var])]
    for var in removed:
        refused[var] = Text("flags.env_removed", name=var, since=str(REMOVED_ENVIRONMENT[var].value.since))
    if ENGINE_VARIABLE in env:
        v0 = env[ENGINE_VARIABLE].strip().lower() in ("0", "false") and \
            not applies(Rule.V1_ENGINE_ALWAYS, _version_or_newest(release or assumed_release))
        if v0:
            refused[ENGINE_VARIABLE] = Text("flags.env_v0_engine")
        else:
            ignored.append(ENGINE_VARIABLE)
    env_kept, env_unknown = sort_environment(env, {*_BY_ENV, NO_COMPILE_CACHE, BACKEND_VARIABLE, ENGINE_VARIABLE,
                                                   *removed})
    ignored += env_kept
    strange += env_unknown
    if env_ignored:
        ignored.append(BACKEND_VARIABLE)
    backend_refusal = _read_backend(settings)
    if backend_refusal is not None:
        refused["--attention-backend"] = backend_refusal
    model, model_ignored, fails = None, None, []
    if kind == "serve":
        model, model_ignored, fails = _serve_model(raw, model_tag, model_flags, entry,
                                                   _version_or_newest(release or assumed_release))
    return {"model": model, "model_ignored": model_ignored, "fails": fails, "settings": settings,
            "ignored": list(dict.fromkeys(ignored)), "refused": {**refused, **unread}, "unknown": strange,
            "kind": kind}


_CONTINUATION = re.compile(r"[ \t]*(?:\\|(?<=[ \t])[`^])\r?\n")
"""A line continuation: a backslash at the end of a line (sh), or a backtick (PowerShell) or caret (cmd)
after a space, as a Windows user's docker run is pasted."""
_SERVED_NAME = re.compile(r"--served[-_]model[-_]name(=.+)?")
_CONFIG_FILE = re.compile(r"--config(=.+)?")


def _serve_model(raw: list[str], model_tag: str | None, model_flags: list[str | None], entry: str,
                 version: Version) -> tuple[str | None, dict[str, Any] | None, list[Text]]:
    """The model vLLM serves for a line's arguments (``raw``, as typed), the word it drops (with the
    reason) and why it would refuse to start, as vLLM's parser reads the line in ``version``:
    ``model_tag`` is the first word no flag takes, ``model_flags`` the values of --model in order.

    * The api_server module (``entry`` "module") parses the word as model_tag and never reads it: it
      serves the last --model, else DEFAULT_MODEL.
    * vllm serve copies the word over --model (vllm/entrypoints/cli/serve.py). Up to v0.11.0 its parser
      refuses the --model token itself (--model=MODEL passes); from v0.11.1 it moves the first --model's
      value to the front as the word (Rule.SERVE_MODEL_FLAG_MOVED), so a line with both has a word
      over; from v0.17.0 a line with --served-model-name must start with the model
      (Rule.SERVED_NAME_NEEDS_MODEL_FIRST), vllm/utils/argparse_utils.py parse_args."""
    if entry == "module":
        model = model_flags[-1] if model_flags else None
        dropped = None if model_tag is None else {
            "word": model_tag, "why": Text("command.model_tag_ignored", word=model_tag, default=model or DEFAULT_MODEL)}
        return model, dropped, []
    fails: list[Text] = []
    if not applies(Rule.SERVE_MODEL_FLAG_MOVED, version):
        model = model_tag or (model_flags[-1] if model_flags else None)
        if "--model" in raw:
            fails.append(Text("command.model_flag_refused", model=model or "MODEL"))
        return model, None, fails
    model = model_flags[0] if model_flags else model_tag
    if model_flags and model_tag is not None:
        fails.append(Text("command.model_twice", word=model_tag, model=model or "MODEL"))
    if (applies(Rule.SERVED_NAME_NEEDS_MODEL_FIRST, version) and not model_flags and raw and raw[0].startswith("-")
            and any(_SERVED_NAME.fullmatch(a) for a in raw) and not any(_CONFIG_FILE.fullmatch(a) for a in raw)):
        fails.append(Text("command.model_not_first", model=model or "MODEL"))
    return model, None, fails


def _version_or_newest(release: str | None) -> Version:
    """The release a line's reading is judged for: the one named, else the newest kvcalc models (a
    release it does not model is left for the core to name)."""
    try:
        return parse_version(release)
    except VersionError:
        return parse_version(None)


def serve_value_words(flag: str) -> int | None:
    """How many words after ``flag`` (given without ``=``) vLLM's parser takes as its value: 0 for a
    switch, None for every word up to the next flag (the capture sizes), else 1; kvcalc's settings by
    their type, other flags by vllm_flags.value_words. Where the model stands in a serve line follows
    from it (``vllm serve --trust-remote-code MODEL``)."""
    name = _BY_FLAG.get(flag)
    if flag in SWITCH_OFF_FORMS or name in _SWITCHES and config_flag(flag) is None:
        return 0
    if name == "cudagraph_capture_sizes":
        return None
    return value_words(flag)


def _after_program(tokens: list[str]) -> tuple[list[str] | None, dict[str, str], str | None, str]:
    """The arguments after ``vllm serve`` / the api_server module / the vllm-openai image, the
    environment assignments before them (and docker's -e/--env), the release an image tag
    names (vllm/vllm-openai:v0.20.0), and which of the three runs ("serve", "module", "image")."""
    env: dict[str, str] = {}
    for i, token in enumerate(tokens):
        m = _ENV.fullmatch(token)
        if m and i + 1 < len(tokens):
            env[m.group(1)] = m.group(2)
            continue
        if token in ("-e", "--env") and i + 1 < len(tokens):
            m = _ENV.fullmatch(tokens[i + 1])
            if m:
                env[m.group(1)] = m.group(2)
            continue
        if token == "serve" and i > 0 and tokens[i - 1].endswith("vllm"):
            return tokens[i + 1:], env, None, "serve"
        if token.endswith("vllm.entrypoints.openai.api_server"):
            return tokens[i + 1:], env, None, "module"
        if "vllm/vllm-openai" in token:
            tag = _IMAGE_TAG.search(token)
            return tokens[i + 1:], env, tag.group(1) if tag else None, "image"
    return None, env, None, "serve"


def entry_point(program: str, release: str | None) -> str:
    """What runs a line's arguments: "serve" (vllm serve) or "module" (python -m
    vllm.entrypoints.openai.api_server). The vllm/vllm-openai image runs the module before v0.11.1 and
    vllm serve from it (Rule.IMAGE_RUNS_VLLM_SERVE); an image without a release tag is a current one."""
    if program == "image" and release is not None:
        try:
            return "serve" if applies(Rule.IMAGE_RUNS_VLLM_SERVE, parse_version(release)) else "module"
        except VersionError:
            return "serve"
    return "module" if program == "module" else "serve"


def _read_backend(settings: dict[str, Any]) -> Text | None:
    """The forced attention backend as the form's select holds it (vLLM reads the name in any case,
    the old Triton name too); "auto" is no choice. A name kvcalc does not size leaves the settings,
    with the reason to show beside the command's other refused flags (else the select would keep its
    old value and the estimate would silently ignore the flag)."""
    value = settings.pop("attention_backend", None)
    if not isinstance(value, str) or not value.strip():
        return None
    word = BACKEND_ALIASES.get(value.strip().upper(), value.strip().upper())
    if word in FORCED_BACKENDS:
        settings["attention_backend"] = word
    elif word != "AUTO":
        return Text("settings.attention_backend", value=value.strip(), allowed=", ".join(FORCED_BACKENDS))
    return None


def _release_at_least(release: str | None, rule: Rule) -> bool:
    """Whether an image tag's release is known and has ``rule`` (a release kvcalc does not model
    is left for the core to name)."""
    if release is None:
        return False
    try:
        return applies(rule, parse_version(release))
    except VersionError:
        return False


def _value(args: list[str], i: int, eq: str, inline: str) -> tuple[str | None, int]:
    if eq:
        return inline, i + 1
    if i + 1 < len(args) and not is_flag(args[i + 1]):
        return args[i + 1], i + 2
    return None, i + 1


def _number(text: str) -> bool:
    return bool(re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", text))


def _typed(name: str, value: str | None) -> Any:
    """Numbers as numbers where the setting is one (the core names a bad one), text otherwise."""
    if value is None:
        return None
    if name in _INTS and re.fullmatch(r"-?[0-9]+", value):
        return int(value)
    if name in _FLOATS and _number(value):
        return float(value)
    return value


def _scalar(value: str | None) -> Any:
    if value is None:
        return None
    if re.fullmatch(r"-?[0-9]+", value):
        return int(value)
    return value


def _json(text: Any) -> dict[str, Any]:
    if not isinstance(text, str):
        return {}
    try:
        value = textdepth.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
