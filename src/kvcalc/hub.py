"""Fetch a model's config.json (with the files beside it that refine it) and weight size from
Hugging Face, for the CLI (the page fetches in the browser, web/app.js ``hfFetch``). Every failure
becomes a :class:`HubError` with a message a person can act on.

Two ways in, one set of rules: ``huggingface_hub`` when it is installed (``pip install
'kvcalc[hub]'``: its cache, HF_HUB_OFFLINE and proxy settings apply), otherwise plain HTTPS with the
standard library, the same requests the page makes (``resolve/main/<file>``, Hugging Face's
``X-Error-Code`` header read as the page reads it), so fetching by id works without extra packages.
Both honour ``HF_TOKEN``; the HTTPS path also ``HF_ENDPOINT`` (a mirror), as huggingface_hub does."""

from __future__ import annotations

import math
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable

from . import __version__, textdepth
from .config_aliases import quantization_config
from .errors import KvcalcError
from .messages import Text
from .safetensors import data_bytes_from_prefix


class HubError(KvcalcError):
    """The model could not be fetched from Hugging Face."""


class _Absent(Exception):
    """The repository has no file of that name (an optional file may well be missing)."""


def fetch_model(model_id: str, token: str | None = None) -> tuple[dict[str, Any], int | None]:
    """(config.json dict, checkpoint bytes or None) for ``model_id``: the sharded index's
    ``total_size``, else the single ``model.safetensors`` file's tensor bytes."""
    token = token or os.environ.get("HF_TOKEN") or None
    files = _HubFiles(model_id, token) if _hub() is not None else _HttpFiles(model_id, token)
    try:
        config = files.json("config.json")
    except _Absent as exc:
        raise HubError(Text("hub.no_config", model=model_id)) from exc
    if not isinstance(config, dict):
        raise HubError(Text("hub.bad_file", model=model_id, file="config.json"))
    config = with_files_beside(config, lambda name: _optional_json(files, name))
    return config, _weights_bytes(files)


def with_files_beside(config: dict[str, Any], optional: Callable[[str], Any]) -> dict[str, Any]:
    """``config`` with the files beside config.json that refine it, each read by ``optional`` (None
    where the checkpoint has none or it cannot be read: the defaults apply): a vision model's
    preprocessor_config.json (its image size limit sizes vLLM's warm-up,
    reserve.checkpoint_max_pixels), an older ModelOpt export's hf_quant_config.json (its
    quantization, which vLLM reads when config.json declares none). The page attaches the same
    (web/app.js ``optionalJsonFromHub``)."""
    if isinstance(config.get("vision_config"), dict):
        processor = optional("preprocessor_config.json")
        if isinstance(processor, dict):
            config = {**config, "preprocessor_config": processor}
    if quantization_config(config) is None:
        quant = optional("hf_quant_config.json")
        if isinstance(quant, dict):
            config = {**config, "hf_quant_config": quant}
    return config


def index_total_bytes(index: Any) -> int | None:
    """A sharded checkpoint's size: model.safetensors.index.json's metadata.total_size, or None."""
    meta = index.get("metadata") if isinstance(index, dict) else None
    total = meta.get("total_size") if isinstance(meta, dict) else None
    return total if isinstance(total, int) and not isinstance(total, bool) and total > 0 else None


def _optional_json(files: Any, name: str) -> Any:
    """A file that may be missing or unreadable: None then."""
    try:
        return files.json(name)
    except Exception:  # noqa: BLE001 - optional file: the defaults apply
        return None


def _weights_bytes(files: Any) -> int | None:
    """The sharded index's metadata.total_size, else the single file's tensor bytes, else None (the
    weights are then estimated from the config)."""
    total = index_total_bytes(_optional_json(files, "model.safetensors.index.json"))
    if total is not None:
        return total
    try:
        return files.single_file_bytes()
    except Exception:  # noqa: BLE001 - weights stay estimated
        return None


# ---- huggingface_hub, when installed

def _hub() -> Any:
    try:
        import huggingface_hub  # noqa: PLC0415 - optional dependency, CLI only
    except ImportError:
        return None
    return huggingface_hub


class _HubFiles:
    """A repository's files through huggingface_hub."""

    def __init__(self, model_id: str, token: str | None) -> None:
        self.hub, self.model_id, self.token = _hub(), model_id, token

    def json(self, name: str) -> Any:
        errors = self.hub.errors
        try:
            path = self.hub.hf_hub_download(self.model_id, name, token=self.token)
            with open(path, encoding="utf-8") as fh:
                return textdepth.loads(fh.read())
        except getattr(errors, "LocalEntryNotFoundError", ()) as exc:
            # offline (HF_HUB_OFFLINE, no network) and not in the cache: not a missing file
            raise HubError(Text("hub.fetch_failed", model=self.model_id, error_type=type(exc).__name__,
                                error=str(exc))) from exc
        except errors.GatedRepoError as exc:
            raise HubError(Text("hub.gated", model=self.model_id)) from exc
        except errors.RepositoryNotFoundError as exc:
            raise HubError(Text("hub.not_found", model=self.model_id)) from exc
        except errors.EntryNotFoundError as exc:
            raise _Absent(name) from exc
        except (OSError, ValueError) as exc:
            raise HubError(Text("hub.fetch_failed", model=self.model_id, error_type=type(exc).__name__,
                                error=str(exc))) from exc

    def single_file_bytes(self) -> int | None:
        meta = self.hub.get_safetensors_metadata(self.model_id, token=self.token)
        total = 0
        for file_meta in meta.files_metadata.values():
            for tensor in file_meta.tensors.values():
                total += math.prod(tensor.shape) * _DTYPE_BYTES.get(tensor.dtype, 2)
        return total or None


_DTYPE_BYTES = {"F64": 8, "F32": 4, "BF16": 2, "F16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "I8": 1,
                "U8": 1, "I32": 4, "I64": 8, "I16": 2, "BOOL": 1}


# ---- plain HTTPS (standard library)

DEFAULT_ENDPOINT = "https://huggingface.co"
TIMEOUT_S = 30
"""Seconds a request may stall before it fails (a connection or a read, not the whole download)."""
MAX_JSON_BYTES = 32 << 20
"""Largest JSON file read: config files are kilobytes, a sharded index of a 1T-parameter model a few
megabytes."""
FIRST_RANGE = "bytes=0-1048575"
"""The first bytes of a single model.safetensors read for its header, as the page reads them; the
header's own length says if more are needed (safetensors.data_bytes_from_prefix)."""

_REPO_PART = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?"
_REPO_ID = re.compile(rf"{_REPO_PART}(?:/{_REPO_PART})?")
"""A Hugging Face repository id: an optional owner and a name, each 1-96 letters, digits, '-', '_'
or '.', not starting or ending with '-' or '.' (huggingface_hub ``validate_repo_id``, which also
refuses '--' and '..')."""


def valid_repo_id(model_id: str) -> bool:
    """Whether ``model_id`` can name a Hugging Face repository (and so go into a URL unescaped)."""
    return bool(_REPO_ID.fullmatch(model_id)) and "--" not in model_id and ".." not in model_id


class _SameHostAuth(urllib.request.HTTPRedirectHandler):
    """Follows redirects (large files resolve to a CDN) but sends the token only to the host it was
    meant for, as huggingface_hub does."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001, PLR0913
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and urllib.parse.urlsplit(newurl).netloc != urllib.parse.urlsplit(req.full_url).netloc:
            new.remove_header("Authorization")
        return new


class _HttpFiles:
    """A repository's files over HTTPS, the requests the page makes."""

    def __init__(self, model_id: str, token: str | None) -> None:
        if not valid_repo_id(model_id):
            raise HubError(Text("hub.bad_id", model=model_id))
        self.model_id, self.token = model_id, token
        self.endpoint = (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")
        self.opener = urllib.request.build_opener(_SameHostAuth)

    def _open(self, name: str, byte_range: str | None = None) -> Any:
        headers = {"User-Agent": f"kvcalc/{__version__}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if byte_range:
            headers["Range"] = byte_range
        url = f"{self.endpoint}/{self.model_id}/resolve/main/{name}"
        try:
            return self.opener.open(urllib.request.Request(url, headers=headers), timeout=TIMEOUT_S)
        except urllib.error.HTTPError as exc:
            exc.close()
            raise self._status_error(exc.code, exc.headers.get("X-Error-Code") or "", name) from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise HubError(Text("hub.fetch_failed", model=self.model_id, error_type=type(exc).__name__,
                                error=str(reason))) from exc

    def _status_error(self, status: int, code: str, name: str) -> Exception:
        """What an HTTP error answer means, read as the page reads it (web/app.js
        ``hfStatusMessage``): Hugging Face names the cause in X-Error-Code."""
        if code == "GatedRepo":
            return HubError(Text("hub.gated", model=self.model_id))
        if code == "RepoNotFound" or (status == 404 and code != "EntryNotFound" and name == "config.json"):
            return HubError(Text("hub.not_found", model=self.model_id))
        if code == "EntryNotFound" or status == 404:
            return _Absent(name)
        if status == 401:
            return HubError(Text("hub.token_refused", model=self.model_id) if self.token
                            else Text("hub.not_found", model=self.model_id))
        if status == 403:
            return HubError(Text("hub.gated", model=self.model_id))
        return HubError(Text("hub.http_status", model=self.model_id, status=status, file=name))

    def _read(self, resp: Any, limit: int, name: str) -> bytes:
        try:
            with resp:
                data = resp.read(limit + 1)
        except OSError as exc:
            raise HubError(Text("hub.fetch_failed", model=self.model_id, error_type=type(exc).__name__,
                                error=str(exc))) from exc
        if len(data) > limit:
            raise HubError(Text("hub.too_large", model=self.model_id, file=name, limit=limit))
        return data

    def json(self, name: str) -> Any:
        data = self._read(self._open(name), MAX_JSON_BYTES, name)
        try:
            return textdepth.loads(data)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise HubError(Text("hub.bad_file", model=self.model_id, file=name)) from exc

    def single_file_bytes(self) -> int | None:
        """The tensor bytes of a single model.safetensors, from its header alone: Range requests only,
        and none if the server would send the whole file (it answers 200, not 206)."""
        byte_range = FIRST_RANGE
        for _ in range(2):
            resp = self._open("model.safetensors", byte_range)
            if resp.status != 206:
                resp.close()
                return None
            length = int(byte_range.rsplit("-", 1)[1]) + 1
            out = data_bytes_from_prefix(self._read(resp, length, "model.safetensors"))
            if out.get("bytes") is not None:
                return out["bytes"]
            if out.get("need_range") is None:
                return None
            byte_range = out["need_range"]
        return None
