"""Read a checkpoint folder on this machine, the way ``vllm serve /path/to/model`` is pointed at
one: its config.json (with the files beside it that refine it, as hub.fetch_model attaches them)
and its weight size from the safetensors headers alone (CLI only; the page reads files the user
picks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import textdepth
from .errors import KvcalcError
from .hub import MAX_JSON_BYTES, index_total_bytes, with_files_beside
from .messages import Text
from .safetensors import MAX_HEADER_BYTES, data_bytes_from_prefix

def is_checkpoint_dir(model: str) -> bool:
    """Whether ``model`` names a folder here rather than a Hugging Face id (vLLM checks the path
    first too: a local folder wins over a repository of the same name)."""
    try:
        return Path(model).expanduser().is_dir()
    except (OSError, ValueError, RuntimeError):    # a name too long, a NUL, ~user with no home
        return False


def read_checkpoint_dir(model: str) -> tuple[dict[str, Any], int | None]:
    """(config.json dict, checkpoint bytes or None) of the folder ``model``."""
    folder = Path(model).expanduser()
    config = _json(folder / "config.json", required=True)
    if not isinstance(config, dict):
        raise KvcalcError(Text("local.not_object", path=str(folder / "config.json")))
    config = with_files_beside(config, lambda name: _json(folder / name, required=False))
    return config, _weights_bytes(folder)


def _json(path: Path, required: bool) -> Any:
    """A JSON file's value; a missing or unreadable optional file is None, a required one an error
    that names it."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_JSON_BYTES + 1)
    except FileNotFoundError as exc:
        if required:
            raise KvcalcError(Text("local.no_config", path=str(path.parent))) from exc
        return None
    except OSError as exc:
        if required:
            raise KvcalcError(Text("local.bad_config", path=str(path), error=exc.strerror or str(exc))) from exc
        return None
    if len(raw) > MAX_JSON_BYTES:
        if required:
            raise KvcalcError(Text("local.too_large", path=str(path), limit=MAX_JSON_BYTES))
        return None
    try:
        return textdepth.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        if required:
            raise KvcalcError(Text("local.bad_config", path=str(path), error=str(exc))) from exc
        return None


def _weights_bytes(folder: Path) -> int | None:
    """The sharded index's metadata.total_size, else the sum of every .safetensors file's tensor
    bytes read from its header, else None (the weights are then estimated from the config)."""
    total = index_total_bytes(_json(folder / "model.safetensors.index.json", required=False))
    if total is not None:
        return total
    total = 0
    for path in sorted(folder.glob("*.safetensors")):
        size = _file_tensor_bytes(path)
        if size is None:
            return None
        total += size
    return total or None


def _file_tensor_bytes(path: Path) -> int | None:
    """One .safetensors file's tensor bytes from its header (data_bytes_from_prefix)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8)
            n = int.from_bytes(head, "little") if len(head) == 8 else 0
            if not 2 <= n <= MAX_HEADER_BYTES:
                return None
            return data_bytes_from_prefix(head + fh.read(n)).get("bytes")
    except OSError:
        return None
