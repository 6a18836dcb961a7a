"""The shell's part of a pasted command (shelltext.py): where the command ends, the variables the text
assigns, and a script a shell runs with -c."""

from __future__ import annotations

import re

import pytest

from kvcalc.shelltext import command_end, expand_variables, script_of


@pytest.mark.parametrize("text, kept", [
    ("vllm serve M --port 8000 > log 2>&1 &", "vllm serve M --port 8000 "),
    ("vllm serve M --port 8000 2>&1", "vllm serve M --port 8000 "),
    ("vllm serve M --port 8000 2>/dev/null", "vllm serve M --port 8000 "),
    ("vllm serve M -tp 2>err", "vllm serve M -tp "),      # digits right before > are the descriptor, as in bash
    ("vllm serve M --x=a2>b", "vllm serve M --x=a2"),     # not at a word's start: they stay with the word
    ("vllm serve M --hf-overrides '{\"a\": \"x;y&z\"}' | tee log", "vllm serve M --hf-overrides '{\"a\": \"x;y&z\"}' "),
    ('vllm serve M --chat-template "a\\"b;c" ; echo', 'vllm serve M --chat-template "a\\"b;c" '),
    ("vllm serve M --a 1 \\; --b", "vllm serve M --a 1 \\; --b"),     # an escaped operator is a word
    ("vllm serve M\n  --port 8000\necho done", "vllm serve M\n  --port 8000"),
    ("vllm serve M --port 8000", "vllm serve M --port 8000"),
])
def test_the_command_ends_where_the_shell_ends_it(text, kept):
    assert text[:command_end(text, len("vllm serve"))] == kept


def test_variables_are_filled_in_split_and_named():
    env = {"MODEL": "Qwen/Qwen3-8B", "EXTRA": "--enforce-eager -tp 2", "EMPTY": ""}
    args, missing = expand_variables(["$MODEL", "${LEN:-8192}", "$(MODEL)x", "$EXTRA", "$EMPTY", "${UTIL}", "$(TP)"],
                                     env)
    assert args == ["Qwen/Qwen3-8B", "8192", "Qwen/Qwen3-8Bx", "--enforce-eager", "-tp", "2", "${UTIL}", "$(TP)"]
    assert missing == ["${UTIL}", "$(TP)"]


def test_a_shell_script_is_found_after_a_shell_word():
    program = re.compile(r"vllm\s+serve")
    assert script_of(["/bin/bash", "-c", "pip install x && vllm serve M"], program) == 2
    assert script_of(["--entrypoint", "/usr/bin/sh", "image", "-c", "vllm serve M"], program) == 4
    assert script_of(["python", "-c", "vllm serve M"], program) is None          # not a shell
    assert script_of(["bash", "-c", "echo hi"], program) is None                 # no server in it
