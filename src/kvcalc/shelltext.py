"""A pasted shell text read as the shell would hand it to vLLM: where the command ends (operators,
redirections, a script's next line), the variables the text assigns, and a script a shell runs with -c.
commandline.py reads what is left as vLLM's parser does; this module knows nothing of vLLM's flags."""

from __future__ import annotations

import re
import shlex

SHELLS = {"sh", "bash", "dash", "zsh", "ash"}


def script_of(words: list[str], holds: re.Pattern[str]) -> int | None:
    """The position of the script a shell runs with ``-c`` (``bash -c "pip install … && vllm serve …"``,
    a container whose command is ``/bin/sh -c``) when the script matches ``holds``; the shell may be
    named by a path and stand anywhere before ``-c`` (docker's --entrypoint /bin/bash IMAGE -c …)."""
    for k in range(2, len(words)):
        if words[k - 1] == "-c" and holds.search(words[k]) and \
                any(w.rsplit("/", 1)[-1] in SHELLS for w in words[:k - 1]):
            return k
    return None


SHELL_VARIABLE = re.compile(r"\$(?:\{(\w+)(?::?-([^}]*))?\}|\((\w+)\)|(\w+))")


def expand_variables(args: list[str], env: dict[str, str]) -> tuple[list[str], list[str]]:
    """The arguments with the shell (``$NAME``, ``${NAME}``, ``${NAME:-default}``) and Kubernetes
    (``$(NAME)``) variables the pasted text assigns (``NAME=value`` before the program, ``export``,
    docker's -e, a spec's environment) put in, a ``${NAME:-default}`` it does not assign by its default,
    and the names of the others, which stay as written. A word that is one variable alone splits into
    the words of its value (``$EXTRA_ARGS``), as an unquoted one does in the shell; one that is empty
    goes."""
    out: list[str] = []
    missing: list[str] = []

    def value(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(3) or m.group(4)
        if name in env:
            return env[name]
        if m.group(2) is not None:
            return m.group(2)
        missing.append(m.group(0))
        return m.group(0)

    for word in args:
        expanded = SHELL_VARIABLE.sub(value, word)
        whole = SHELL_VARIABLE.fullmatch(word) is not None and expanded != word
        if whole:
            try:
                out += shlex.split(expanded)
            except ValueError:
                out.append(expanded)
        else:
            out.append(expanded)
    return out, list(dict.fromkeys(missing))


def command_end(text: str, start: int) -> int:
    """Where the command that starts before ``start`` ends: at the first shell operator outside quotes
    (``;``, ``&``, ``&&``, ``|``, ``||``) or redirection (``>``, ``>>``, ``<``, ``2>&1``: vLLM never sees
    them), or at a line break whose next line does not go on with a flag (a script's next command; a
    line of flags, as a wrapped command is often pasted, goes on), else the end of the text.
    ``nohup vllm serve MODEL > log.txt 2>&1 &`` ends after MODEL."""
    quote = None
    i = start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = None
        elif c == "\\":
            i += 2
            continue
        elif c in "'\"":
            quote = c
        elif c == "\n" and not text[i:].lstrip().startswith("-"):
            return i
        elif c in ";&|<>":
            j = i
            while c in "<>" and j > start and text[j - 1].isdigit():     # 2>&1: the descriptor is the operator's
                j -= 1
            if j < i and not text[j - 1].isspace():
                j = i      # digits inside a word (a=1>…) stay with it
            return j
        i += 1
    return len(text)
