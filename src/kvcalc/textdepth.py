"""How deep text from outside nests, checked before a parser that recurses in C reads it: JSON (a
request, a config.json, a flag's JSON value, a safetensors header) and Python literals (an LLM(...)
call, a log's dict of arguments).

CPython refuses such text nested a few hundred or thousand levels deep with a RecursionError or a
SyntaxError, which callers turn into a message. In Pyodide, where the page's worker runs the core,
the same text overflows the WebAssembly stack inside the C parser first: a fatal error that stops
Python in the page for good (Pyodide 314.0.7 in a Chromium worker: ``json.loads`` at 5,000 levels,
``ast.parse`` of an LLM(...) call at 199, which CPython itself would still accept). So JSON goes
through ``loads``, which refuses more than ``MAX_DEPTH`` levels before it parses, and a Python
literal is checked with ``literal_too_deep`` against ``LITERAL_MAX_DEPTH``. No model config, setting,
request or logged argument comes near either (a request with a drafter's multimodal config is about
8 deep, a log's arguments 4).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of JSON arrays and objects accepted."""

CONFIG_MAX_DEPTH = MAX_DEPTH - 4
"""Deepest a model's config.json may nest so that the page's request carrying it (request, drafter,
config, and a file beside it such as preprocessor_config.json) stays within MAX_DEPTH; the page
checks a config against it before it keeps one."""

LITERAL_MAX_DEPTH = 32
"""Deepest nesting of brackets and parentheses accepted in a Python literal or call: well below the
199 levels at which ``ast.parse`` stopped Pyodide in a browser worker."""

_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""A JSON string (skipped whole, so brackets inside it do not count) or a bracket."""

_LITERAL_TOKENS = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\\\n]*(?:\\.[^\'\\\n]*)*\'|#[^\n]*|[\[\](){}]')
"""A Python string in single or double quotes (triple quotes read as an empty string beside a plain
one, which counts the same brackets), a comment (skipped whole: closing brackets in one must not
hide the nesting after it), or a bracket or parenthesis."""


class TooDeep(ValueError):
    """JSON nested deeper than MAX_DEPTH (a ValueError, as json's own decoding errors are)."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


def _deeper(tokens: re.Pattern[str], text: str, limit: int) -> bool:
    """Whether ``text`` opens more than ``limit`` brackets at once outside strings; it stops at the
    first one past the limit, so a hostile text costs no more than a well-formed one."""
    depth = 0
    for token in tokens.finditer(text):
        mark = token.group()
        if mark in ("[", "{", "("):
            depth += 1
            if depth > limit:
                return True
        elif mark in ("]", "}", ")"):
            depth = max(depth - 1, 0)       # a stray closer cannot bank depth for what follows
    return False


def too_deep(text: str) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than MAX_DEPTH deep."""
    return _deeper(_JSON_TOKENS, text, MAX_DEPTH)


def literal_too_deep(text: str) -> bool:
    """Whether Python source ``text`` nests brackets and parentheses more than LITERAL_MAX_DEPTH deep."""
    return _deeper(_LITERAL_TOKENS, text, LITERAL_MAX_DEPTH)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_STRING = "|".join((r"'''(?:[^'\\]|\\.|'(?!''))*'''", r'"""(?:[^"\\]|\\.|"(?!""))*"""',
                    r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'", r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'))
_UNSIGNED = (r"(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+"
             r"|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d[\d_]*)?[jJ]?)")
_NUMBER = r"[-+]?" + _UNSIGNED
_LITERAL_TOKEN = re.compile(rf"\s+|[rRbBuUfF]{{0,2}}(?:{_STRING})|{_NUMBER}|(?:True|False|None)\b|[\[\](){{}},:]")
"""What a logged Python literal is made of: strings, numbers with at most one sign, True, False,
None, brackets, commas and colons."""


def literal_tokens_only(text: str) -> bool:
    """Whether ``text`` holds nothing but literal tokens (``_LITERAL_TOKEN``). ast's parser recurses
    once per token on a run of unary operators, ``not`` or ``lambda`` (2,000 of them stopped Pyodide
    with a 700 KB stack, as did its error pass on 2,000 bare names under 500 KB): text holding anything
    else is no literal, and is refused before ast reads it, which would refuse it anyway."""
    pos, end = 0, len(text)
    while pos < end:
        token = _LITERAL_TOKEN.match(text, pos)
        if token is None or token.end() == pos:
            return False
        pos = token.end()
    return True


EXPRESSION_MAX_STEPS = 256
"""Most operators, names and chained calls or subscripts accepted in a pasted LLM(...) call. ast's
parser and its conversion to Python objects recurse once per step of a chain such as ``- - - 1``,
``2 ** 2 ** … 1``, ``1 + 1 + … 1``, ``a.b.c…`` or ``f(1)(1)…`` whose brackets never nest: 2,000 to
5,000 of them stopped Pyodide under a 500 KB stack, 600 did not (even inside 30 brackets). A call
passing 100 engine arguments, each a literal, takes 100 steps (one per argument's name)."""

_EXPRESSION_TOKEN = re.compile(rf"(?P<space>\s+|#[^\n]*)|(?P<value>[rRbBuUfF]{{0,2}}(?:{_STRING})|{_UNSIGNED})"
                               rf"|(?P<name>[^\W\d]\w*)|(?P<mark>.)", re.S)
"""Python source as whitespace or comments, strings and unsigned numbers, names, and single
characters."""

_CONSTANTS = frozenset(("True", "False", "None"))


def expression_too_long(text: str) -> bool:
    """Whether Python source ``text`` takes more than EXPRESSION_MAX_STEPS steps: each name other
    than True, False and None, each operator character, and each call or subscript on a value counts
    one; strings, numbers, separators and brackets that open a new value count none (their nesting
    is LITERAL_MAX_DEPTH's). It stops at the first step past the limit."""
    steps, after_value = 0, False
    for token in _EXPRESSION_TOKEN.finditer(text):
        kind, mark = token.lastgroup, token.group()
        if kind == "space":
            continue
        if kind == "value":
            after_value = True
        elif kind == "name":
            steps += mark not in _CONSTANTS
            after_value = True
        elif mark in "([":
            steps += after_value            # f(…) or x[…]: a call or subscript on the value before it
            after_value = False
        elif mark in ")]}":
            after_value = True
        else:
            steps += mark not in ",:={"
            after_value = False
        if steps > EXPRESSION_MAX_STEPS:
            return True
    return False


def loads(text: str | bytes | bytearray, constants: bool = False) -> Any:
    """``json.loads`` for text from outside; raises TooDeep, or json's ValueError, instead of
    recursing without bound. Bytes are read as UTF-8 (a UnicodeDecodeError is a ValueError too).
    NaN and Infinity, which Python's json reads but JSON (and the page's JSON.parse) does not, are
    refused unless ``constants``: echoed, they would make a reply no browser can parse. A whole
    request reads them (``constants``) so that the setting holding one is named (api.handle_json)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    if too_deep(text):
        raise TooDeep
    return json.loads(text) if constants else json.loads(text, parse_constant=_no_constant)
