"""The CLI's Hugging Face fetch without huggingface_hub: plain HTTPS requests, the page's requests,
against a local stand-in for huggingface.co (HF_ENDPOINT; loopback only, no network)."""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kvcalc.cli import main
from kvcalc.hub import FIRST_RANGE, HubError, fetch_model, valid_repo_id

from factories import config, safetensors_file


class FakeHub:
    """huggingface.co's resolve endpoint for a few repositories: ``files`` maps a request path
    ('/owner/name/resolve/main/config.json') to bytes, a JSON-able value, or a (status, headers)
    answer; every request is recorded with its headers."""

    def __init__(self, files):
        self.files, self.requests = files, []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                hub.requests.append((self.path, dict(self.headers)))
                answer = hub.files.get(self.path)
                if answer is None:
                    return self._send(404, {"X-Error-Code": "EntryNotFound"}, b"")
                if isinstance(answer, tuple):
                    return self._send(answer[0], answer[1], b"")
                body = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                rng = self.headers.get("Range")
                if rng and not self.path.endswith("ignores-range/resolve/main/model.safetensors"):
                    start, end = (int(x) for x in rng.removeprefix("bytes=").split("-"))
                    return self._send(206, {}, body[start:end + 1])
                return self._send(200, {}, body)

            def _send(self, status, headers, body):
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                """A client that stops reading (the checkpoint sent whole is closed unread) is normal."""
                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                    super().handle_error(request, client_address)

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def url(self, host="127.0.0.1"):
        return f"http://{host}:{self.port}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hub(monkeypatch):
    """A FakeHub set up as HF_ENDPOINT, with huggingface_hub made unimportable and no HF_TOKEN."""
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    made = []

    def serve(files):
        h = FakeHub(files)
        made.append(h)
        monkeypatch.setenv("HF_ENDPOINT", h.url() + "/")
        return h
    yield serve
    for h in made:
        h.close()


ROOT = "/someone/qwen3-copy/resolve/main/"


def test_config_and_sharded_size_over_https(hub, monkeypatch):
    h = hub({ROOT + "config.json": config("Qwen/Qwen3-0.6B"),
             ROOT + "model.safetensors.index.json": {"metadata": {"total_size": 1503300328}}})
    monkeypatch.setenv("HF_TOKEN", "hf_secret")
    cfg, size = fetch_model("someone/qwen3-copy")
    assert cfg["num_hidden_layers"] == 28 and size == 1503300328
    path, headers = h.requests[0]
    assert path == ROOT + "config.json"
    assert headers["Authorization"] == "Bearer hf_secret" and headers["User-Agent"].startswith("kvcalc/")


def test_a_single_safetensors_file_is_sized_from_its_header_alone(hub):
    """A header longer than the first megabyte read: a second Range request for exactly the header,
    never the tensor data (as the page does)."""
    body = safetensors_file({"a": 6_000_000, "b": 2_000_000}, pad=1_200_000)
    h = hub({ROOT + "config.json": config("Qwen/Qwen3-0.6B"), ROOT + "model.safetensors": body})
    _, size = fetch_model("someone/qwen3-copy")
    assert size == 8_000_000
    ranges = [hd.get("Range") for p, hd in h.requests if p.endswith("model.safetensors")]
    header_end = 8 + int.from_bytes(body[:8], "little") - 1
    assert ranges == [FIRST_RANGE, f"bytes=0-{header_end}"]


def test_a_server_that_ignores_range_is_not_read(hub):
    root = "/ignores-range/resolve/main/"
    hub({root + "config.json": config("Qwen/Qwen3-0.6B"),
         root + "model.safetensors": safetensors_file({"a": 4_000_000})})
    _, size = fetch_model("ignores-range")
    assert size is None


def test_the_files_beside_config_come_along(hub):
    root = "/someone/vl/resolve/main/"
    hub({root + "config.json": config("Qwen/Qwen2.5-VL-7B-Instruct"),
         root + "preprocessor_config.json": {"max_pixels": 1003520}})
    cfg, size = fetch_model("someone/vl")
    assert cfg["preprocessor_config"]["max_pixels"] == 1003520 and size is None


@pytest.mark.parametrize("answer,token,needle", [
    ((401, {"X-Error-Code": "RepoNotFound"}), None, "was not found on Hugging Face"),
    ((404, {}), None, "was not found on Hugging Face"),
    ((403, {"X-Error-Code": "GatedRepo"}), "hf_x", "is gated"),
    ((401, {}), "hf_x", "refused the token"),
    ((404, {"X-Error-Code": "EntryNotFound"}), None, "has no config.json"),
    ((503, {}), None, "answered HTTP 503 for config.json"),
])
def test_http_answers_are_explained(hub, monkeypatch, answer, token, needle):
    hub({ROOT + "config.json": answer})
    if token:
        monkeypatch.setenv("HF_TOKEN", token)
    with pytest.raises(HubError, match=needle):
        fetch_model("someone/qwen3-copy")


@pytest.mark.parametrize("body,needle", [(b"{not json", "not a JSON object"),
                                         (b"[" * 200 + b"]" * 200, "nested too deep"),
                                         (b"[1, 2]", "not a JSON object")])
def test_a_config_that_is_not_an_object_is_refused(hub, body, needle):
    hub({ROOT + "config.json": body})
    with pytest.raises(HubError, match=needle):
        fetch_model("someone/qwen3-copy")


def test_an_unreachable_host_says_check_the_network(hub, monkeypatch):
    h = hub({})
    h.close()                     # nothing listens on the port any more
    with pytest.raises(HubError, match="check your network"):
        fetch_model("someone/qwen3-copy")


@pytest.mark.parametrize("bad", ["../etc/passwd", "a/b/c", "owner/na me", "-x/y", "x--y", "", "a" * 97,
                                 "Qwen/Qwen3-8B?x=1", "Qwen/Qwen3-8B#frag"])
def test_an_id_that_cannot_name_a_repository_is_refused_before_any_request(hub, bad):
    h = hub({})
    assert not valid_repo_id(bad)
    with pytest.raises(HubError, match="nor a Hugging Face model id"):
        fetch_model(bad)
    assert h.requests == []


@pytest.mark.parametrize("good", ["Qwen/Qwen3-8B", "gpt2", "meta-llama/Llama-3.1-8B-Instruct", "a/b.c_d-e"])
def test_ids_hugging_face_accepts_are_valid(good):
    assert valid_repo_id(good)


def test_the_token_goes_only_to_the_host_it_was_meant_for(hub, monkeypatch):
    """Large files resolve to a CDN: a redirect to another host loses the Authorization header, a
    redirect on the same host keeps it."""
    cdn = FakeHub({"/blob/config.json": config("Qwen/Qwen3-0.6B")})
    try:
        h = hub({ROOT + "config.json": (302, {"Location": cdn.url("localhost") + "/blob/config.json"}),
                 "/same/host/resolve/main/config.json": (302, {"Location": "/blob2/config.json"}),
                 "/blob2/config.json": config("Qwen/Qwen3-0.6B")})
        monkeypatch.setenv("HF_TOKEN", "hf_secret")
        fetch_model("someone/qwen3-copy")
        assert cdn.requests and "Authorization" not in cdn.requests[0][1]
        fetch_model("same/host")
        assert dict(h.requests)["/blob2/config.json"]["Authorization"] == "Bearer hf_secret"
    finally:
        cdn.close()


def test_cli_estimate_by_id_without_huggingface_hub(hub, capsys):
    hub({ROOT + "config.json": config("Qwen/Qwen3-0.6B"),
         ROOT + "model.safetensors.index.json": {"metadata": {"total_size": 1503300328}}})
    assert main(["estimate", "--model", "someone/qwen3-copy", "--max-model-len", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"]["id"] == "someone/qwen3-copy" and out["layout"]["kv_bytes_per_token"] == 28 * 8 * 256 * 2
    assert out["budget"]["checkpoint_gib"] == pytest.approx(1503300328 / 2**30, abs=0.01)


def test_cli_says_what_went_wrong_without_a_traceback(hub, capsys):
    hub({ROOT + "config.json": (401, {"X-Error-Code": "RepoNotFound"})})
    assert main(["serve", "someone/qwen3-copy", "--gpu", "h100"]) != 0
    err = capsys.readouterr().err
    assert "someone/qwen3-copy was not found on Hugging Face" in err and "Traceback" not in err


LOG = """\
INFO 10-08 16:50:22 [core.py:129] Initializing a V1 LLM engine (v0.31.0) with config: model='{model}', \
speculative_config=None, tokenizer='{model}', dtype=torch.bfloat16, max_seq_len=4096, tensor_parallel_size=1, \
pipeline_parallel_size=1, quantization=None, enforce_eager=False, kv_cache_dtype=auto
INFO 10-08 16:51:00 [gpu_worker.py:400] Available KV cache memory: 60.00 GiB
INFO 10-08 16:51:00 [kv_cache_utils.py:1100] GPU KV cache size: 561,728 tokens
INFO 10-08 16:51:00 [kv_cache_utils.py:1101] Maximum concurrency for 4,096 tokens per request: 137.14x
"""


def test_cli_compares_a_log_whose_model_is_fetched_by_the_name_it_prints(hub, tmp_path, capsys):
    """A log of a model outside the catalog: parse-log --compare reads its config as estimate does
    (Qwen3-0.6B: 28 layers × 8 KV heads × 128 × 2 × 2 B = 114,688 B a token; 60 GiB is 35,108
    blocks of 16, 561,728 tokens)."""
    hub({ROOT + "config.json": config("Qwen/Qwen3-0.6B")})
    log = tmp_path / "start.log"
    log.write_text(LOG.format(model="someone/qwen3-copy"))
    assert main(["parse-log", "--compare", str(log), "--gpu", "h100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == "someone/qwen3-copy"
    assert out["calculation"]["from_log"]["tokens"] == 561_728


def test_cli_a_log_naming_a_folder_elsewhere_asks_for_the_model(hub, tmp_path, capsys):
    hub({})
    log = tmp_path / "start.log"
    log.write_text(LOG.format(model="/models/qwen3-0.6b"))
    assert main(["parse-log", "--compare", str(log), "--gpu", "h100"]) == 2
    err = capsys.readouterr().err
    assert "the log names the model '/models/qwen3-0.6b'" in err and "pass --model" in err
    assert main(["parse-log", "--compare", str(log), "--gpu", "h100", "--model", "Qwen/Qwen3-0.6B", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calculation"]["from_log"]["tokens"] == 561_728
