"""Project exceptions. Owns the error hierarchy only.

Every user-facing failure raises a HybridError subclass whose message names the field or path,
the allowed values and what was received. The CLI turns any HybridError into exit code 2 and a
one-line message on stderr (no traceback). Internal invariants are plain asserts, not these.
"""

__all__ = [
    "HybridError",
    "ConfigError",
    "CorpusError",
    "TemplateError",
    "FieldError",
    "CheckpointError",
    "SamplingError",
    "OutputError",
]


class HybridError(Exception):
    """Base class of every error a user can cause and fix."""

    exit_code = 2


class ConfigError(HybridError):
    """A config or argument value is out of range (names the field, the range and the value)."""


class CorpusError(HybridError):
    """The corpus path, manifest or a split is missing or malformed."""


class TemplateError(HybridError):
    """A template id is unknown or a template file breaks the meta-schema."""


class FieldError(HybridError):
    """A user field is missing, unknown, of the wrong type or too long."""


class CheckpointError(HybridError):
    """A checkpoint directory is missing a file, corrupt, or from a different config."""


class SamplingError(HybridError):
    """A sampling/drafting argument (steps, guidance, n, temperature, ...) is invalid."""


class OutputError(HybridError):
    """An output path cannot be written, is held by another run, or holds an unfinished commit."""
