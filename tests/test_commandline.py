"""A pasted vllm serve command read into kvcalc's settings (commandline.read_command, op
read_command): the flags vLLM spells, the environment in front, docker's image tag and -e, and
what kvcalc has no setting for."""

from __future__ import annotations

import json

import pytest

from kvcalc import api
from kvcalc.commandline import read_command
from kvcalc.errors import SettingsError


def test_a_multi_line_serve_command():
    got = read_command(
        "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B \\\n"
        "  --max-model-len 32k -tp 2 --gpu-memory-utilization=0.85 --port 8000 --trust-remote-code \\\n"
        "  --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}' \\\n"
        "  --enable-prefix-caching --no-async-scheduling -q awq_marlin --cudagraph-capture-sizes 1 2 4 8\n")
    assert got["model"] == "Qwen/Qwen3-8B"
    assert got["settings"] == {
        "model_runner_v2": False, "max_model_len": "32k", "tensor_parallel_size": 2,
        "gpu_memory_utilization": 0.85, "speculative": '{"method": "mtp", "num_speculative_tokens": 2}',
        "enable_prefix_caching": True, "async_scheduling": False, "weights": "awq",
        "cudagraph_capture_sizes": "1 2 4 8"}
    assert got["ignored"] == ["--port", "--trust-remote-code"] and got["refused"] == {} and got["unknown"] == []


def test_docker_names_the_release_and_the_environment():
    got = read_command("docker run --gpus all -e VLLM_USE_FLASHINFER_SAMPLER=1 -p 8000:8000 "
                       "vllm/vllm-openai:v0.20.0 --model google/gemma-3-12b-it --max-num-seqs 64 --enable-lora")
    assert got["model"] == "google/gemma-3-12b-it"
    assert got["settings"] == {"vllm_version": "0.20.0", "flashinfer_sampler": True, "max_num_seqs": 64}
    assert "LoRA adapters are not modelled" in got["refused"]["--enable-lora"]


def test_the_api_server_module_and_dotted_speculative_flags():
    got = read_command("python -m vllm.entrypoints.openai.api_server --model acme/m --max-model-len auto "
                       "--speculative-config.method mtp --speculative-config.num_speculative_tokens 3 --frob 1")
    assert got["model"] == "acme/m" and got["settings"]["max_model_len"] == "auto"
    assert json.loads(got["settings"]["speculative"]) == {"method": "mtp", "num_speculative_tokens": 3}
    assert got["unknown"] == ["--frob"]


@pytest.mark.parametrize("text,field,needle", [
    ("echo hello", "log", "no vLLM server command found"),
    ("<script>'unclosed", "log", "no vLLM server command found"),
    ("", "log", "no vLLM server command found"),
    ("vllm serve m --speculative-config '{\"method\": ", "command", "quotes do not close"),
    ("vllm serve m " + "--port 1 " * 3000, "command", "longer than 20,000 characters"),
])
def test_what_is_no_command_says_so(text, field, needle):
    with pytest.raises(SettingsError) as e:
        read_command(text)
    assert needle in e.value.problems[field]


def test_the_form_keeps_what_a_command_leaves_unsaid():
    """The release (unless an image tag names it), the checkpoint format and kvcalc's own settings
    come from the form, as for a log's non-default args; the flags the command gives win, and a
    serve line runs on vllm serve's entry point whatever the form held."""
    r = api.handle({"op": "read_command", "text": "vllm serve Qwen/Qwen3-8B -tp 2",
                    "fallback": {"settings": {"vllm_version": "0.25.0", "avg_tokens": 1000, "tensor_parallel_size": 4,
                                              "compile_cache": "warm", "max_num_seqs": 7}}})
    assert r["ok"], r
    assert r["result"]["settings"] == {"tensor_parallel_size": 2, "vllm_version": "0.25.0", "avg_tokens": 1000,
                                       "compile_cache": "warm", "entrypoint": "serve"}
    tagged = api.handle({"op": "read_command", "text": "docker run vllm/vllm-openai:v0.31.0 --model Qwen/Qwen3-8B",
                         "fallback": {"settings": {"vllm_version": "0.25.0"}}})
    assert tagged["result"]["settings"]["vllm_version"] == "0.31.0"


def test_vllm_shorthands_and_the_moe_backend():
    """--spec-method/--spec-model/--spec-tokens (v0.22+) build the speculative config; --moe-backend
    marlin is the one MoE kernel choice kvcalc sizes (MXFP4 experts), any other keeps the release's;
    a whole vision encoder per GPU (--mm-encoder-tp-mode data) is not modelled."""
    got = read_command("vllm serve openai/gpt-oss-120b --spec-method eagle3 --spec-model acme/head --spec-tokens 3 "
                       "--moe-backend marlin --stream-interval 5 --mm-encoder-tp-mode weights")
    assert json.loads(got["settings"]["speculative"]) == {"method": "eagle3", "model": "acme/head",
                                                          "num_speculative_tokens": 3}
    assert got["settings"]["mxfp4_marlin"] is True
    assert got["ignored"] == ["--stream-interval", "--mm-encoder-tp-mode"]
    other = read_command("vllm serve m --moe-backend cutlass --mm-encoder-tp-mode data")
    assert "mxfp4_marlin" not in other["settings"] and other["ignored"] == ["--moe-backend"]
    assert "whole encoder" in other["refused"]["--mm-encoder-tp-mode"]


def test_turning_custom_all_reduce_off_is_read_as_a_setting():
    """--disable-custom-all-reduce puts NCCL inside the CUDA graphs, which makes each graph cost more
    (reserve.nccl_in_graphs), so a pasted command keeps it as a setting, not an ignored flag."""
    got = read_command("vllm serve Qwen/Qwen3-32B -tp 2 --disable-custom-all-reduce")
    assert got["settings"] == {"tensor_parallel_size": 2, "disable_custom_all_reduce": True}
    assert got["ignored"] == [] and got["refused"] == {}


@pytest.mark.parametrize("flags, level", [("-O3", 3), ("-O 3", 3), ("-O=1", 1), ("-O0", 0),
                                          ("--optimization-level 1", 1), ("--optimization-level=2", 2)])
def test_an_optimization_level_is_read_in_every_spelling(flags, level):
    got = read_command(f"vllm serve Qwen/Qwen3-8B {flags}")
    assert got["settings"] == {"optimization_level": level} and got["refused"] == {} and got["ignored"] == []


@pytest.mark.parametrize("flags", ["-cc.cudagraph_mode=NONE", """-cc '{"cudagraph_mode": "none"}'""",
                                   "--compilation-config.cudagraph_mode NONE"])
def test_the_compilation_configs_short_name_from_v0_12_is_read(flags):
    """From v0.12 -cc is the compilation config's short name (-O the optimization level)."""
    got = read_command(f"vllm serve Qwen/Qwen3-8B {flags}")
    assert got["settings"] == {"cudagraph_mode": "NONE"} and got["refused"] == {} and got["unknown"] == []


def test_chunked_prefill_switches_are_read():
    assert read_command("vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill")["settings"] == \
        {"enable_chunked_prefill": False}
    assert read_command("vllm serve Qwen/Qwen3-8B --enable-chunked-prefill")["settings"] == \
        {"enable_chunked_prefill": True}


def test_data_parallelism_is_read_and_where_engines_run_is_left_out():
    got = read_command("vllm serve Qwen/Qwen3-8B -dp 4 --data-parallel-size-local 2 --data-parallel-backend ray")
    assert got["settings"] == {"data_parallel_size": 4} and got["refused"] == {}
    assert got["ignored"] == ["--data-parallel-size-local", "--data-parallel-backend"]


VLLM_FLAGS = json.loads((__import__("pathlib").Path(__file__).parent / "fixtures" / "vllm_serve_flags.json")
                        .read_text(encoding="utf-8"))


def test_every_flag_vllm_serve_defines_is_read_ignored_or_refused():
    """Each flag 23 release wheels (v0.10.0 to v0.34.0) define for `vllm serve` either sets a setting,
    is ignored as leaving GPU memory alone, or is refused with a reason: none comes back as unknown,
    the dead end a pasted command met for 228 of them before."""
    unknown = [flag for flag in VLLM_FLAGS["flags"]
               if flag in read_command(f"vllm serve Qwen/Qwen3-8B {flag} 1")["unknown"]]
    assert unknown == []



def test_every_flag_kvcalc_does_not_read_takes_the_words_vllm_gives_it():
    """The arity of each flag (switch, several words, an optional one) as argparse reads it in the release
    wheels matches vllm_flags' tables, which find the model in a serve line: a flag that is a setting is
    read by commandline itself."""
    from kvcalc.commandline import serve_value_words
    from kvcalc.vllm_flags import PLAIN_SWITCHES, SWITCHES
    arity = VLLM_FLAGS["arity"]
    words = {"switch": 0, "plain switch": 0, "many": None, "optional": 1}
    wrong = [flag for flag in VLLM_FLAGS["flags"] if serve_value_words(flag) != words.get(arity.get(flag), 1)]
    assert wrong == []
    assert {f for f, kind in arity.items() if kind == "plain switch"} == PLAIN_SWITCHES
    unread = {f for f, kind in arity.items() if kind == "switch" and
              read_command(f"vllm serve Qwen/Qwen3-8B {f}")["settings"] == {}}
    assert unread == SWITCHES


def test_the_off_form_of_every_switch_goes_where_the_switch_goes():
    """BooleanOptionalAction gives each switch a --no- form: off, as by default, it is ignored, never
    unknown; a plain store_true switch has none."""
    from kvcalc.vllm_flags import ON_BY_DEFAULT, SWITCHES
    for flag in (f for f in SWITCHES if f.startswith("--")):     # -dpe has its long form's
        read = read_command(f"vllm serve Qwen/Qwen3-8B --no-{flag[2:]}")
        assert (read["unknown"], list(read["refused"])) == ([], [f"--no-{flag[2:]}"] if flag in ON_BY_DEFAULT else [])
    assert read_command("vllm serve Qwen/Qwen3-8B --no-headless")["unknown"] == ["--no-headless"]
    on = read_command("vllm serve Qwen/Qwen3-8B --swa-bounded-replay")       # on by default: asks for nothing
    assert on["ignored"] == ["--swa-bounded-replay"] and on["refused"] == {}


@pytest.mark.parametrize("line", [
    "vllm serve --trust-remote-code Qwen/Qwen3-8B -tp 2",
    "vllm serve --seed 0 Qwen/Qwen3-8B -tp 2",
    "vllm serve --seed -1 --port=8000 Qwen/Qwen3-8B -tp 2",
    "vllm serve -tp 2 --no-trust-remote-code --disable-log-stats Qwen/Qwen3-8B",
    "vllm serve --served-model-name a b --enforce-eager Qwen/Qwen3-8B -tp 2",
    "vllm serve --hf-token hf_x Qwen/Qwen3-8B -tp 2",
])
def test_the_model_after_flags_is_read_as_vllm_reads_it(line):
    """The first word no flag takes is the model, wherever it stands; before, a model after a switch or
    a flag kvcalc ignores was lost (read as that flag's value) and the page kept its own."""
    read = read_command(line)
    assert read["model"] == "Qwen/Qwen3-8B" and read["settings"]["tensor_parallel_size"] == 2
    assert read["unknown"] == []
    assert bool(read["fails"]) == ("--served-model-name" in line)     # from v0.17 the model must come first there


def test_words_a_flag_takes_are_its_own_and_a_stray_word_is_named():
    assert read_command("vllm serve --served-model-name a Qwen/Qwen3-8B")["model"] is None   # vLLM's reading too
    assert read_command("vllm serve --hf-token Qwen/Qwen3-8B")["model"] is None               # nargs "?"
    assert read_command("vllm serve Qwen/Qwen3-8B --trust-remote-code zh")["unknown"] == ["zh"]


def _fails(read) -> list[str]:
    return [str(why) for why in read["fails"]]


@pytest.mark.parametrize("line", ["vllm serve Qwen/Qwen3-8B --model=acme/other -tp 2",
                                  "vllm serve --model=acme/other -tp 2 Qwen/Qwen3-8B"])
def test_up_to_v0_11_0_the_word_wins_over_model(line):
    """vllm serve copies its positional model over --model (vllm/entrypoints/cli/serve.py ``args.model =
    args.model_tag``), wherever either stands; kvcalc read the later one, or named the word as stray."""
    read = read_command(line, "0.11.0")
    assert read["model"] == "Qwen/Qwen3-8B" and read["model_ignored"] is None and read["fails"] == []
    assert read["unknown"] == [] and read["settings"]["tensor_parallel_size"] == 2


def test_up_to_v0_11_0_vllm_serve_refuses_the_model_flag():
    """v0.10.0-v0.11.0 raise ValueError on the --model token in vllm serve; --model=MODEL passes."""
    read = read_command("vllm serve --model Qwen/Qwen3-8B -tp 2", "0.10.2")
    assert read["model"] == "Qwen/Qwen3-8B" and len(read["fails"]) == 1
    assert "refuses the --model flag" in _fails(read)[0] and "vllm serve Qwen/Qwen3-8B" in _fails(read)[0]
    assert read_command("vllm serve --model=Qwen/Qwen3-8B -tp 2", "0.10.2")["fails"] == []
    assert read_command("vllm serve --model Qwen/Qwen3-8B -tp 2", "0.11.1")["fails"] == []      # moved to the front


@pytest.mark.parametrize("line", ["vllm serve acme/other --model Qwen/Qwen3-8B -tp 2",
                                  "vllm serve --model Qwen/Qwen3-8B acme/other -tp 2",
                                  "vllm serve -tp 2 --model=Qwen/Qwen3-8B acme/other"])
def test_from_v0_11_1_a_line_that_names_the_model_twice_does_not_start(line):
    """From v0.11.1 vllm serve moves the first --model's value to the front as its model, so a word
    that named the model too is left over: 'unrecognized arguments'."""
    read = read_command(line)
    assert read["model"] == "Qwen/Qwen3-8B" and read["unknown"] == [] and len(read["fails"]) == 1
    assert "unrecognized arguments: acme/other" in _fails(read)[0]


@pytest.mark.parametrize("line, fails", [
    ("vllm serve --served-model-name n Qwen/Qwen3-8B", True),      # the name takes the word too
    ("vllm serve --trust-remote-code Qwen/Qwen3-8B --served-model-name n", True),
    ("vllm serve --served_model_name=n --trust-remote-code Qwen/Qwen3-8B", True),
    ("vllm serve Qwen/Qwen3-8B --served-model-name n", False),
    ("vllm serve --served-model-name n --model Qwen/Qwen3-8B", False),     # --model moves to the front
    ("vllm serve --trust-remote-code Qwen/Qwen3-8B", False),
    ("docker run vllm/vllm-openai:v0.20.0 --served-model-name n Qwen/Qwen3-8B", True),
    ("docker run vllm/vllm-openai:v0.16.0 --served-model-name n --trust-remote-code Qwen/Qwen3-8B", False),
])
def test_from_v0_17_a_served_name_needs_the_model_first(line, fails):
    read = read_command(line)
    assert bool(read["fails"]) == fails, read
    if fails:
        assert "from v0.17.0 vllm serve stops when --served-model-name is given" in _fails(read)[0]
    assert read_command(line, "0.16.0")["fails"] == [] or "v0.20.0" in line


def test_the_page_judges_a_line_by_the_forms_release():
    """A line that names no release is judged for the form's (the request's fallback settings)."""
    reply = api.handle({"op": "read_command", "text": "vllm serve --model Qwen/Qwen3-8B",
                        "fallback": {"settings": {"vllm_version": "0.10.2"}}})
    assert reply["ok"] and "refuses the --model flag" in reply["result"]["fails"][0]
    assert "拒绝 --model 参数" in reply["zh"][reply["result"]["fails"][0]]
    newest = api.handle({"op": "read_command", "text": "vllm serve --model Qwen/Qwen3-8B"})
    assert newest["ok"] and newest["result"]["fails"] == []


@pytest.mark.parametrize("line, served", [
    ("python -m vllm.entrypoints.openai.api_server Qwen/Qwen3-8B -tp 2", None),
    ("python3 -m vllm.entrypoints.openai.api_server --model acme/other Qwen/Qwen3-8B -tp 2", "acme/other"),
    ("docker run --gpus all vllm/vllm-openai:v0.10.2 Qwen/Qwen3-8B -tp 2", None),
    ("docker run --gpus all vllm/vllm-openai:v0.11.0 -tp 2 Qwen/Qwen3-8B", None),
])
def test_the_api_server_module_drops_a_model_given_without_model(line, served):
    """The module's parser takes the word as model_tag and never reads it, so vLLM serves --model or its
    default; the vllm/vllm-openai image ran the module up to v0.11.0. The word is named, not served."""
    read = read_command(line)
    assert read["model"] == served and read["unknown"] == [] and read["settings"]["tensor_parallel_size"] == 2
    assert read["model_ignored"]["word"] == "Qwen/Qwen3-8B"
    why = str(read["model_ignored"]["why"])
    assert f"serves {served or 'Qwen/Qwen3-0.6B'}" in why and "write --model Qwen/Qwen3-8B" in why


@pytest.mark.parametrize("image, release", [
    ("vllm/vllm-openai:v0.10.1.1", "0.10.1"), ("vllm/vllm-openai:v0.20.0-aarch64", "0.20.0"),
    ("docker.io/vllm/vllm-openai:v0.24.0@sha256:251eba5cc7c1", "0.24.0"), ("vllm/vllm-openai:v0.22.1rc1", "0.22.1"),
    ("vllm/vllm-openai-rocm:v0.14.0", "0.14.0"), ("vllm/vllm-openai:nightly", None),
])
def test_an_image_tag_names_its_release(image, release):
    """Post-release, suffixed, digest-pinned and ROCm tags set the release too (v0.10.1.1 read none)."""
    read = read_command(f"docker run --gpus all {image} --model Qwen/Qwen3-8B")
    assert read["settings"].get("vllm_version") == release and read["model"] == "Qwen/Qwen3-8B"


@pytest.mark.parametrize("image", ["vllm/vllm-openai:v0.11.1", "vllm/vllm-openai:v0.20.0", "vllm/vllm-openai",
                                   "vllm/vllm-openai:latest"])
def test_the_image_reads_a_positional_model_from_v0_11_1(image):
    """From v0.11.1 the image's entry point is vllm serve (#25967); an untagged image is a current one."""
    read = read_command(f"docker run --gpus all {image} Qwen/Qwen3-8B -tp 2")
    assert read["model"] == "Qwen/Qwen3-8B" and read["model_ignored"] is None


def test_a_compose_service_on_an_old_image_drops_a_positional_model():
    spec = ("services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n"
            "    command: [\"Qwen/Qwen3-8B\", \"--max-model-len\", \"8192\"]\n")
    read = read_command(spec)
    assert read["model"] is None and read["model_ignored"]["word"] == "Qwen/Qwen3-8B"
    assert read["settings"] == {"vllm_version": "0.10.1", "max_model_len": 8192}
    own = read_command(spec.replace('["Qwen', '["vllm", "serve", "Qwen'))     # the spec runs vllm serve itself
    assert own["model"] == "Qwen/Qwen3-8B" and own["model_ignored"] is None


@pytest.mark.parametrize("line", [
    "nohup vllm serve Qwen/Qwen3-8B --max-model-len 8192 > vllm.log 2>&1 &",
    "vllm serve Qwen/Qwen3-8B --max-model-len 8192 2>&1 | tee vllm.log",
    "vllm serve Qwen/Qwen3-8B --max-model-len 8192; echo stopped",
    "vllm serve Qwen/Qwen3-8B --max-model-len 8192 && curl localhost:8000/health",
    "vllm serve Qwen/Qwen3-8B --max-model-len 8192 >>vllm.log",
])
def test_shell_operators_and_redirections_end_the_command(line):
    """vLLM never sees a redirection, a pipe or what follows ; & &&: they were named as unknown words."""
    read = read_command(line)
    assert read["model"] == "Qwen/Qwen3-8B" and read["settings"] == {"max_model_len": 8192}
    assert read["unknown"] == [] and read["ignored"] == [] and read["fails"] == []


def test_quoted_operators_stay_in_their_value():
    read = read_command("""vllm serve Qwen/Qwen3-8B --hf-overrides '{"a": "x;y|z>w"}' --chat-template "<|im|>" &""")
    assert read["settings"] == {"hf_overrides": '{"a": "x;y|z>w"}'} and read["unknown"] == []


@pytest.mark.parametrize("text", [
    'MODEL_ID=Qwen/Qwen3-8B UTIL=0.8 vllm serve "$MODEL_ID" --gpu-memory-utilization "$UTIL" -tp ${TP:-2}',
    'export MODEL_ID=Qwen/Qwen3-8B\nexport EXTRA="--gpu-memory-utilization 0.8 -tp 2"\nvllm serve ${MODEL_ID} $EXTRA',
    "containers:\n- name: vllm\n  image: vllm/vllm-openai:v0.30.0\n  env:\n  - name: MODEL_ID\n"
    "    value: Qwen/Qwen3-8B\n  - name: UTIL\n    value: \"0.8\"\n"
    "  args: [\"$(MODEL_ID)\", \"--gpu-memory-utilization=$(UTIL)\", \"-tp\", \"2\"]\n",
])
def test_variables_the_text_assigns_are_filled_in(text):
    """Shell ($NAME, ${NAME}, ${NAME:-default}) and Kubernetes ($(NAME)) variables set in the pasted text;
    an unquoted variable alone splits into its words, as in the shell."""
    read = read_command(text)
    assert read["model"] == "Qwen/Qwen3-8B" and read["unexpanded"] == [] and read["unknown"] == []
    assert read["settings"]["gpu_memory_utilization"] == 0.8 and read["settings"]["tensor_parallel_size"] == 2


def test_variables_the_text_does_not_assign_leave_the_form_its_own():
    """The model and the settings an unassigned variable would give are left out and the variable is
    named; one in a flag kvcalc ignores (--served-model-name "$NAME") is not worth a word."""
    read = read_command('vllm serve "$MODEL_ID" --served-model-name "$NAME" --max-model-len 8192 '
                        '--gpu-memory-utilization "$UTIL" $EXTRA_ARGS')
    assert read["model"] is None and read["model_ignored"]["word"] == "$MODEL_ID"
    assert "a variable the pasted text does not assign" in str(read["model_ignored"]["why"])
    assert read["settings"] == {"max_model_len": 8192} and read["unknown"] == []
    assert read["unexpanded"] == ["$MODEL_ID", "$UTIL", "$EXTRA_ARGS"]


@pytest.mark.parametrize("text, release", [
    ('bash -c "pip install -U transformers && vllm serve Qwen/Qwen3-8B --max-model-len 8192 -tp $TP"', None),
    ('docker run --gpus all -e TP=2 --entrypoint /bin/bash vllm/vllm-openai:v0.20.0 '
     '-c "vllm serve Qwen/Qwen3-8B --max-model-len 8192 -tp $TP"', "0.20.0"),
    ("containers:\n- name: vllm\n  image: vllm/vllm-openai:v0.30.0\n  env:\n  - name: TP\n    value: \"2\"\n"
     "  command: [\"/bin/sh\", \"-c\"]\n"
     "  args: [\"vllm serve Qwen/Qwen3-8B --max-model-len 8192 -tp $TP --port 8000\"]\n", "0.30.0"),
    ("services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.2\n    environment:\n      - TP=2\n"
     "    entrypoint: [\"/bin/bash\", \"-c\"]\n    command:\n      - |\n"
     "        pip install x && vllm serve Qwen/Qwen3-8B \\\n          --max-model-len 8192 -tp $TP; sleep 1\n"
     "        echo started\n", "0.10.2"),
])
def test_a_shell_running_the_server_as_a_script_is_read_through(text, release):
    """sh -c / bash -c scripts (a container's command overridden by a shell too): the script's vllm serve
    line is read, with the variables and the image's release around it; the image's own entry point
    does not run, so a Compose service of v0.10.2 still reads the model vllm serve names."""
    read = read_command(text if release else "TP=2 " + text)
    assert read["model"] == "Qwen/Qwen3-8B" and read["unknown"] == [] and read["fails"] == []
    want = {"max_model_len": 8192, "tensor_parallel_size": 2}
    assert read["settings"] == ({**want, "vllm_version": release} if release else want)


@pytest.mark.parametrize("text", [
    "docker run --gpus all `\n  vllm/vllm-openai:v0.20.0 `\n  --model Qwen/Qwen3-8B `\n  --max-model-len 8192",
    "docker run --gpus all ^\r\n  vllm/vllm-openai:v0.20.0 ^\r\n  --model Qwen/Qwen3-8B ^\r\n  --max-model-len 8192",
    "docker run --gpus all \\\n  vllm/vllm-openai:v0.20.0\\\n  --model Qwen/Qwen3-8B \\\r\n  --max-model-len 8192",
])
def test_line_continuations_of_sh_powershell_and_cmd(text):
    """A Windows user's docker run continues its lines with ` (PowerShell) or ^ (cmd): they were named
    as unknown words."""
    read = read_command(text)
    assert read["model"] == "Qwen/Qwen3-8B" and read["unknown"] == []
    assert read["settings"] == {"vllm_version": "0.20.0", "max_model_len": 8192}


def test_a_line_break_ends_the_command_unless_flags_go_on():
    """A script's next command is not vLLM's; a wrapped command whose next lines start with flags is."""
    read = read_command("pip install vllm\nvllm serve Qwen/Qwen3-8B\n  --max-model-len 8192\n  -tp 2\necho done\n")
    assert read["settings"] == {"max_model_len": 8192, "tensor_parallel_size": 2} and read["unknown"] == []


@pytest.mark.parametrize("line, release, refused", [
    ("VLLM_USE_V1=0 vllm serve Qwen/Qwen3-8B", "0.10.2", True),
    ("docker run -e VLLM_USE_V1=0 vllm/vllm-openai:v0.10.1.1 --model Qwen/Qwen3-8B", None, True),
    ("VLLM_USE_V1=0 vllm serve Qwen/Qwen3-8B", "0.11.0", False),     # only V1 from v0.11.0
    ("VLLM_USE_V1=1 vllm serve Qwen/Qwen3-8B", "0.10.2", False),
])
def test_the_v0_engine_variable_is_refused_where_it_runs_v0(line, release, refused):
    read = read_command(line, release)
    assert ("VLLM_USE_V1" in read["refused"]) == refused and ("VLLM_USE_V1" in read["ignored"]) != refused
    assert read["unknown"] == []
    if refused:
        assert "V0 engine" in str(read["refused"]["VLLM_USE_V1"])


def test_the_off_forms_of_kvcalcs_switches_are_read():
    """--no-X for every switch kvcalc reads, and v0.34's --enable-/--disable- twins
    (vllm/utils/argparse_utils.py EnableDisableAction)."""
    read = read_command("vllm serve Qwen/Qwen3-8B --no-enforce-eager --disable-prefix-caching "
                        "--enable-custom-all-reduce --no-language-model-only --disable-lora")
    assert read["settings"] == {"enforce_eager": False, "enable_prefix_caching": False,
                                "disable_custom_all_reduce": False, "language_model_only": False}
    assert read["ignored"] == ["--disable-lora"] and read["unknown"] == [] and read["refused"] == {}

@pytest.mark.parametrize("line, setting, value", [
    ("--device-memory-utilization 0.8", "gpu_memory_utilization", 0.8),     # v0.33's second spelling
    ("""-sc '{"method": "ngram", "num_speculative_tokens": 3}'""", "speculative",
     '{"method": "ngram", "num_speculative_tokens": 3}'),
    ("""-ac '{"backend": "FLASHINFER"}'""", "attention_backend", "FLASHINFER"),
    ("-sc.method ngram -sc.num_speculative_tokens=3", "speculative", '{"method": "ngram", "num_speculative_tokens": 3}'),
    ("--cuda-graph-sizes 1 2 4 8", "cudagraph_capture_sizes", "1 2 4 8"),     # v0.12's deprecated spelling
])
def test_vllms_short_and_second_spellings_set_the_setting(line, setting, value):
    assert read_command(f"vllm serve Qwen/Qwen3-8B {line}")["settings"][setting] == value


@pytest.mark.parametrize("line, flag, ignored", [
    ("--runner generate", "--runner", True),
    ("--runner pooling", "--runner", False),
    ("--convert embed", "--convert", False),
    ("--model-impl vllm", "--model-impl", True),
    ("--model-impl transformers", "--model-impl", False),
    ("-pcp 1", "-pcp", True),
    ("-pcp 2", "-pcp", False),
    ("--mm-ipc-gpu-memory-gb 2", "--mm-ipc-gpu-memory-gb", False),
    ("--config serve.yaml", "--config", False),
    ("--max-parallel-loading-workers 2", "--max-parallel-loading-workers", True),
    ("--enable-lora --max-cpu-loras 4", "--enable-lora", False),
])
def test_flags_are_ignored_or_refused_by_what_their_value_does(line, flag, ignored):
    read = read_command(f"vllm serve Qwen/Qwen3-8B {line}")
    assert (flag in read["ignored"], flag in read["refused"]) == (ignored, not ignored)


def test_the_cli_refuses_vllms_yaml_config_rather_than_reading_it_as_a_config_json(capsys):
    from kvcalc.cli import main
    assert main(["serve", "Qwen/Qwen3-8B", "--gpu", "h100", "--config", "serve.yaml"]) == 2
    assert "YAML file" in capsys.readouterr().err


def test_flag_names_with_underscores_and_json_flags_key_by_key_read_as_vllm_parses_them():
    """vLLM's parser turns underscores in a flag's name into dashes and builds a JSON flag from its
    dotted keys (FlexibleArgumentParser.parse_args, v0.10-v0.33); kvcalc reads a pasted line the same way."""
    read = read_command("vllm serve Qwen/Qwen3-8B --max_model_len 4096 --gpu_memory_utilization=0.8 "
                        "--served_model_name x --compilation_config.cudagraph_mode FULL_DECODE_ONLY "
                        "--hf-overrides.rope_scaling.factor 2 --hf_overrides.max_position_embeddings=65536 "
                        "--kv-transfer-config.kv_connector LMCacheConnectorV1 --structured-outputs-config.backend x")
    assert read["settings"]["max_model_len"] == 4096 and read["settings"]["gpu_memory_utilization"] == 0.8
    assert read["settings"]["cudagraph_mode"] == "FULL_DECODE_ONLY"
    assert json.loads(read["settings"]["hf_overrides"]) == {"rope_scaling": {"factor": 2},
                                                            "max_position_embeddings": 65536}
    assert read["unknown"] == [] and list(read["refused"]) == ["--kv-transfer-config"]
    assert read["ignored"] == ["--served-model-name", "--structured-outputs-config"]


def test_the_multimodal_json_flags_read_key_by_key_too():
    """vLLM's parser takes any JSON flag key by key and appends the JSON it builds last, so the keys replace
    a JSON given whole; --limit-mm-per-prompt.video 0 was named as an unknown flag and its limit lost."""
    read = read_command("vllm serve Qwen/Qwen2.5-VL-7B-Instruct --limit-mm-per-prompt '{\"image\": 2}' "
                        "--limit-mm-per-prompt.image 0 --limit_mm_per_prompt.video=0 "
                        "--mm-processor-kwargs.max_pixels 1003520")
    assert json.loads(read["settings"]["limit_mm_per_prompt"]) == {"image": 0, "video": 0}
    assert json.loads(read["settings"]["mm_processor_kwargs"]) == {"max_pixels": 1003520}
    assert read["unknown"] == [] and read["ignored"] == [] and read["refused"] == {}


def test_disabling_the_sliding_window_is_read_as_a_setting():
    assert read_command("vllm serve google/gemma-3-1b-it --disable-sliding-window")["settings"] == \
        {"disable_sliding_window": True}


def test_a_disabled_compile_cache_reads_as_a_first_start_every_time():
    """VLLM_DISABLE_COMPILE_CACHE=1: vLLM compiles on every start, as on a first one."""
    assert read_command("VLLM_DISABLE_COMPILE_CACHE=1 vllm serve Qwen/Qwen3-8B")["settings"] == {"compile_cache": "cold"}
    assert read_command("VLLM_DISABLE_COMPILE_CACHE=0 vllm serve Qwen/Qwen3-8B")["settings"] == {}


def test_environment_variables_kvcalc_does_not_read_are_named_not_dropped():
    """vLLM's and NCCL's variables that leave memory alone are named as ignored, the others it does
    not read as unknown (they may change memory); the rest of the environment is not vLLM's."""
    got = read_command("CUDA_VISIBLE_DEVICES=0,1 HF_TOKEN=x VLLM_LOGGING_LEVEL=DEBUG "
                       "VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE=1073741824 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                       "VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve Qwen/Qwen3-8B -tp 2")
    assert got["settings"] == {"flashinfer_sampler": True, "tensor_parallel_size": 2}
    assert got["ignored"] == ["VLLM_LOGGING_LEVEL"]
    assert got["unknown"] == ["VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE", "PYTORCH_CUDA_ALLOC_CONF"]
