"""A pasted ``LLM(...)`` call, vLLM's offline entry point (``from vllm import LLM``), read into the
engine arguments it passes, so the page can start from a notebook as it does from a serve line.

The call's keyword arguments are vLLM's EngineArgs fields, the same names ``vllm serve`` spells as
``--max-model-len`` (vllm/entrypoints/llm.py ``LLM.__init__`` passes them to EngineArgs); the
model is the first positional argument or ``model=``. Only literal values are read (numbers,
strings, booleans, None, lists and dicts, and integer arithmetic such as ``32 * 1024``); a name or
a call is left out and said so. Parsing uses Python's own ``ast`` and never evaluates the code.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass, field
from typing import Any

from . import textdepth

_CALL = re.compile(r"(?<![\w.])(?:vllm\.)?LLM\s*\(")
"""Where an LLM( call starts: the class alone or as vllm.LLM, not a longer name (AsyncLLM, MyLLM)."""

_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
               ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow}


@dataclass(frozen=True)
class LlmCall:
    """What a pasted LLM(...) call passes: the model (None where it is not a literal) and each
    keyword argument by name; ``unread`` names the ones whose value is not a literal."""

    model: str | None
    kwargs: dict[str, Any] = field(default_factory=dict)
    unread: tuple[str, ...] = ()


def has_llm_call(text: str) -> bool:
    """Whether ``text`` holds an LLM( call at all."""
    return bool(_CALL.search(text))


class CallTooIntricate(ValueError):
    """An LLM(...) call whose brackets nest, or whose operators, names and chained calls run, past
    what ast's parser can read without stopping Pyodide (textdepth); it is refused unread."""


def read_llm_call(text: str) -> LlmCall | None:
    """The first LLM(...) call in ``text`` (a whole script, a notebook cell or the call alone), or
    None when there is none that parses; CallTooIntricate when the only calls found are too
    intricate to parse safely."""
    intricate = False
    for match in _CALL.finditer(text):
        source = _balanced(text, match.end() - 1)
        if source is None:
            continue
        # past these limits ast's parser would stop the page's Pyodide, not just fail
        if textdepth.literal_too_deep(source) or textdepth.expression_too_long(source):
            intricate = True
            continue
        try:
            tree = ast.parse(text[match.start():match.end() - 1].split(".")[-1].strip() + source, mode="eval")
        except (SyntaxError, ValueError):
            continue
        if isinstance(tree.body, ast.Call):
            return _arguments(tree.body)
    if intricate:
        raise CallTooIntricate
    return None


def _balanced(text: str, start: int) -> str | None:
    """The parenthesised text from ``text[start]`` (an opening parenthesis) to its match, skipping
    quoted strings; None when it does not close."""
    depth, quote, i = 0, "", start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif text.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif ch in "'\"":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote) - 1
        elif ch == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    return None


def _arguments(call: ast.Call) -> LlmCall:
    kwargs: dict[str, Any] = {}
    unread: list[str] = []
    model = None
    if call.args:
        model = _literal(call.args[0])
    for kw in call.keywords:
        if kw.arg is None:              # LLM(**engine_args): nothing to read
            unread.append("**" + (kw.value.id if isinstance(kw.value, ast.Name) else "…"))
            continue
        value = _literal(kw.value)
        if value is _UNREAD:
            unread.append(kw.arg)
        elif kw.arg == "model":
            model = value
        else:
            kwargs[kw.arg] = value
    return LlmCall(model if isinstance(model, str) else None, kwargs, tuple(unread))


_UNREAD = object()


def _literal(node: ast.AST) -> Any:
    """A literal's value, integer arithmetic on literals included (32 * 1024), else _UNREAD."""
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _literal(node.left), _literal(node.right)
        if isinstance(left, (int, float)) and isinstance(right, (int, float)) and \
                not isinstance(left, bool) and not isinstance(right, bool) and \
                not (isinstance(node.op, ast.Pow) and abs(right) > 64):
            try:
                return _ARITHMETIC[type(node.op)](left, right)
            except (ArithmeticError, ValueError):
                return _UNREAD
        return _UNREAD
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _UNREAD
