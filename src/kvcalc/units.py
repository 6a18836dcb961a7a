"""Units and the integer helpers vLLM's sizing code uses. GiB = 2**30 bytes."""

from __future__ import annotations

GIB = 1 << 30
MIB = 1 << 20


def cdiv(a: int, b: int) -> int:
    """Ceiling division on integers, as ``vllm.utils.math_utils.cdiv``: cdiv(17, 16) == 2."""
    return -(-a // b)


def format_gib(num_bytes: float) -> str:
    """``vllm.utils.mem_utils.format_gib`` (#31865): ``str(round(b / 2**30, 2))``.

    Trailing zeros go: 54.32 GiB -> "54.32", 50.60 -> "50.6", 3.0 -> "3.0".
    """
    return str(round(num_bytes / GIB, 2))


def gib(num_bytes: float) -> float:
    """Bytes to GiB as a float."""
    return num_bytes / GIB
