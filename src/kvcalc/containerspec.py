"""A vLLM container as a Docker Compose service or a Kubernetes pod spec writes it, turned into the
command line it runs, so a pasted deployment reads like a pasted ``vllm serve`` line.

Only what decides the command is read, from the YAML's lines (the standard library has no YAML
parser): the vllm/vllm-openai image (its tag names the release), ``command:``, ``args:`` and
``entrypoint:`` as a flow list (``["--model", "Qwen/Qwen3-8B"]``), a block list (``- --max-model-len
8192``), a folded or literal block (``>`` / ``|``) or a plain string, and the environment
(Compose's ``environment:`` as ``- KEY=value`` or ``KEY: value``, Kubernetes' ``env:`` as ``- name:``
/ ``value:`` pairs). The container's entry point, when the spec leaves it out, is the image's own
(``vllm serve`` in vllm/vllm-openai, whose arguments the image line stands for).
"""

from __future__ import annotations

import re
import shlex

from . import textdepth

_KEY = re.compile(r"^(\s*)(?:-\s+)?(command|args|entrypoint|environment|env)\s*:\s*(.*?)\s*$")
_IMAGE = re.compile(r"^\s*(?:-\s+)?image\s*:\s*[\"']?(\S*vllm/vllm-openai\S*?)[\"']?\s*$", re.M)
_ENV_NAME = re.compile(r"^\s*-\s+name\s*:\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?\s*$")
_ENV_VALUE = re.compile(r"^\s*value\s*:\s*(.*?)\s*$")


def is_container_spec(text: str) -> bool:
    """Whether ``text`` is a Compose or Kubernetes spec of a vLLM container: YAML keys for its
    command or arguments, and the vLLM image or a vllm command."""
    keys = (m.group(2) for m in map(_KEY.match, text.splitlines()) if m)
    has_keys = any(k in ("command", "args", "entrypoint") for k in keys)
    return has_keys and (bool(_IMAGE.search(text)) or "vllm" in text)


def container_command(text: str) -> str:
    """The command line the spec runs: its environment, then the image (which stands for the
    image's own entry point, vllm serve), then ``entrypoint``/``command`` and ``args``."""
    lines = text.splitlines()
    found: dict[str, list[str]] = {}
    env: list[str] = []
    for i, line in enumerate(lines):
        m = _KEY.match(line)
        if not m:
            continue
        indent, key, rest = len(m.group(1)), m.group(2), m.group(3)
        if key in ("environment", "env"):
            env += _environment(lines, i + 1, indent, rest, kubernetes=key == "env")
        elif key not in found:
            found[key] = _items(lines, i + 1, indent, rest)
    image = image_of(text)
    words = [*env, image or "vllm/vllm-openai"]
    run = found.get("entrypoint", []) + found.get("command", [])
    if run and any("vllm" in w for w in run):
        words = [*env, *run]          # the spec names its own program: vllm serve, or the module
    elif run:
        words += run
    words += found.get("args", [])
    return " ".join(shlex.quote(w) if not re.fullmatch(r"[A-Z][A-Z0-9_]*=.*", w) else
                    w.split("=", 1)[0] + "=" + shlex.quote(w.split("=", 1)[1]) for w in words)


def _unquote(word: str) -> str:
    word = word.strip()
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def _block(lines: list[str], start: int, indent: int) -> list[str]:
    """The lines after ``start`` indented deeper than ``indent``, or list items at that indent (YAML
    lets a key's list start level with it): a block's body, blank and comment lines skipped."""
    body = []
    for line in lines[start:]:
        text = line.lstrip()
        if not text or text.startswith("#"):
            continue
        depth = len(line) - len(text)
        if depth < indent or depth == indent and not text.startswith("- "):
            break
        body.append(line)
    return body


def _items(lines: list[str], start: int, indent: int, rest: str) -> list[str]:
    """The words of a command or args value: a flow list, a block list, a folded or literal block,
    or a plain string split as a shell would."""
    if rest.startswith("["):
        try:
            value = textdepth.loads(rest)
            return [str(v) for v in value] if isinstance(value, list) else []
        except ValueError:
            return [_unquote(w) for w in rest.strip("[]").split(",") if w.strip()]
    if rest and rest[0] in ">|":
        folded = " ".join(line.strip() for line in _block(lines, start, indent))
        return _split(folded)
    if rest:
        return _split(_unquote(rest))
    words: list[str] = []
    body = _block(lines, start, indent)
    top = min((len(line) - len(line.lstrip()) for line in body), default=0)
    for n, line in enumerate(body):
        item = line.strip()
        if len(line) - len(line.lstrip()) > top:
            continue       # a line of a block item's body, taken below with its item
        if not item.startswith("- "):
            break
        if _BLOCK_ITEM.fullmatch(item):      # - | / - >-: the item is the block under it (a script for sh -c)
            under = []
            for more in body[n + 1:]:
                if len(more) - len(more.lstrip()) <= top:
                    break
                under.append(more.strip())
            words.append(("\n" if item[2] == "|" else " ").join(under))
            continue
        words.append(_unquote(item[2:]))
    return words


_BLOCK_ITEM = re.compile(r"- [|>][+-]?")


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def image_of(text: str) -> str | None:
    """The vllm/vllm-openai image the spec runs (its tag names the release), or None."""
    m = _IMAGE.search(text)
    return m.group(1) if m else None


def _environment(lines: list[str], start: int, indent: int, rest: str, kubernetes: bool) -> list[str]:
    """KEY=value words of Compose's ``environment:`` (list or mapping) or Kubernetes' ``env:``
    (``- name:`` / ``value:`` pairs only: a ``valueFrom`` secret has no value to read)."""
    out: list[str] = []
    if rest.startswith("["):
        return [w for w in _items(lines, start, indent, rest) if "=" in w]
    body = _block(lines, start, indent)
    name = None
    for line in body:
        item = line.strip()
        m = _ENV_NAME.match(line)
        if m:
            name = m.group(1)
            continue
        v = _ENV_VALUE.match(line)
        if v and name:
            out.append(f"{name}={_unquote(v.group(1))}")
            name = None
            continue
        if kubernetes:
            continue
        if item.startswith("- ") and "=" in item:
            out.append(_unquote(item[2:]))
        elif ":" in item and not item.startswith("-"):
            key, _, value = item.partition(":")
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key.strip()):
                out.append(f"{key.strip()}={_unquote(value)}")
    return out
