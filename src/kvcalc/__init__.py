"""kvcalc: reproduce, to the block, the KV cache pool vLLM prints at startup.

Pure Python, standard library only, so the same code runs in CPython, the CLI and Pyodide.
Entry points: :func:`kvcalc.engine.calculate` and the JSON boundary :mod:`kvcalc.api`.
"""

__version__ = "0.1.0"
