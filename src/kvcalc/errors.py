"""The errors kvcalc raises on purpose, all of them ``ValueError`` subclasses.

Every message says what was wrong, why, and what to do instead. Callers (the CLI,
the page's worker) catch :class:`KvcalcError` and show ``str(error)``; anything
else escaping the core is a bug. Messages are :class:`~kvcalc.messages.Text` where
they have a Chinese translation (the page shows it; ``str`` stays English).

    KvcalcError(ValueError)
    ├── ConfigError          a config.json field is missing, of the wrong type or out of range
    ├── UnsupportedModelError  an architecture vLLM sizes in a way kvcalc cannot reproduce yet
    ├── SettingsError        a flag value vLLM would reject (collects every bad field at once)
    ├── CatalogError         an unknown GPU or model key, or a malformed data file
    └── VersionError         a vLLM version outside the range kvcalc models
"""

from __future__ import annotations

from .messages import Text, join_texts


class KvcalcError(ValueError):
    """Base class: an input kvcalc cannot turn into a trustworthy number."""


class ConfigError(KvcalcError):
    """A Hugging Face config field is missing or invalid; ``field`` is its dotted path."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.text = Text("config.field", field=field, problem=problem)
        super().__init__(self.text)


class UnsupportedModelError(KvcalcError):
    """The model is valid, but kvcalc does not reproduce how vLLM sizes its cache."""


class SettingsError(KvcalcError):
    """One or more settings are out of the range vLLM accepts.

    ``problems`` maps each flag (in vLLM's spelling) to what is wrong with it, so a
    form can mark every bad field at once.
    """

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = dict(problems)
        parts = [Text("settings.problem", flag=flag, problem=msg) for flag, msg in self.problems.items()]
        super().__init__(join_texts(parts) if parts else "")


class CatalogError(KvcalcError):
    """A GPU or model is not in the catalog, or a data file is malformed."""


class VersionError(KvcalcError):
    """A vLLM version string that cannot be parsed or lies outside the modelled range."""
