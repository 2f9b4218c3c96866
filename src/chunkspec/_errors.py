"""Every exception chunkspec raises, as one tree: ``except ChunkspecError`` catches them all.

Each class also derives from the built-in it has always been (in brackets), so an
``except ValueError`` keeps working. The classes are defined here unless a home is named::

    ChunkspecError
    ├── ArgumentTypeError [TypeError]         an argument of the wrong type: names it and its value
    ├── ArgumentValueError [ValueError]       an argument with a forbidden value: names it and it
    │   └── StrategyUnavailable               a known strategy that cannot run here (EVAL-19)
    ├── InputError [ValueError]               a document that cannot be read (SOURCE-6)
    ├── PdfError [ValueError]                 not a PDF, encrypted, or no text to extract (PAGE)
    ├── NotRegularFile [OSError]              a FIFO, device, socket or folder as input (TRUST-31)
    ├── OverCap [ValueError]                  more bytes than the cap allows (TRUST-32)
    ├── JsonTextError [ValueError]            JSON text a strict reader refuses (TRUST-2)
    │   └── RepeatedKeyError                  a key named twice in one object (TRUST-2)
    ├── CorpusError [ValueError]              a labelled corpus breaking its format (EVAL)
    ├── RetrieverUnavailable [ValueError]     a retriever whose extra is not installed (EVAL)
    ├── ContractViolation [AssertionError]    a chunker broke a contract rule (CONTRACT)
    ├── RecordFileError [ValueError]          a records file that cannot be read as records (CLI-4)
    ├── IngestError                           a corpus run's one-line error (CLI-1); the command
    │                                         line raises it as CliError (_cli/_io.py)
    ├── DamagedRow [ValueError]               _corpus/_part_files.py: a part's row that is not
    │                                         ingest output (TRUST-46)
    ├── StoreError                            a vector store that cannot be written or read as
    │                                         STORE's rules say; names the store (STORE)
    └── PortError                             _conformance/_port.py: a port that cannot be used
                                              (CONF)

Signals that never leave their module (not errors a caller sees)::

    Interrupted [KeyboardInterrupt]           _corpus/_critical.py: a run stopped by a signal
                                              (CLI-13)
    _ProducerGone [ChunkspecError]            _conformance/_produce.py: a case worker ended
    _Disagreement [Exception]                 _conformance/_runner.py: the port disagreed
    _Enough, _Found [BaseException]           _conformance/_runner.py: end the batch stage
    _RepeatedKeyError [Exception]             _core/_strict_json.py: the decoder hook's signal
    _Carried [Exception]                      stores/_ray_apply.py: a Ray task's error, carried
                                              to the driver and raised there as itself

Outside the tree on purpose: a missing optional extra is an ``ImportError`` naming the
``pip install`` to run, and a missing document id in a corpus a ``KeyError`` (the mapping
protocol). A new exception class goes into this tree (tests/core/test_errors.py checks it).
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "ArgumentValueError",
    "ChunkspecError",
    "ContractViolation",
    "CorpusError",
    "IngestError",
    "InputError",
    "JsonTextError",
    "NotRegularFile",
    "OverCap",
    "PdfError",
    "RecordFileError",
    "RepeatedKeyError",
    "RetrieverUnavailable",
    "StoreError",
    "StrategyUnavailable",
]


def _shown(value: object) -> str:
    """Return a short repr of ``value`` for an error message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class ChunkspecError(Exception):
    """The base of every error chunkspec raises on purpose: ``except ChunkspecError`` catches
    them all. Each subclass also derives from the built-in it has always been (``TypeError``,
    ``ValueError``), so older ``except ValueError`` code keeps working."""


class ArgumentTypeError(ChunkspecError, TypeError):
    """An argument has the wrong type; ``argument`` names it and ``value`` holds it."""

    def __init__(self, argument: str, expected: str, value: object) -> None:
        self.argument = argument
        self.value = value
        super().__init__(
            f"{argument} must be {expected}, got {type(value).__name__} {_shown(value)}"
        )


class ArgumentValueError(ChunkspecError, ValueError):
    """An argument has the right type but a forbidden value."""

    def __init__(self, argument: str, problem: str, value: object) -> None:
        self.argument = argument
        self.value = value
        super().__init__(f"{argument} {problem}, got {_shown(value)}")


class StrategyUnavailable(ArgumentValueError):
    """A known strategy whose chunker cannot run in this installation (rule EVAL-19).

    No built-in family raises it: every one's chunker ships in chunkspec's core.
    """

    def __init__(self, name: str, needs: str) -> None:
        super().__init__("strategy", f"needs {needs}", name)


class InputError(ChunkspecError, ValueError):
    """A document that cannot be read: bad bytes, bad JSON blocks, a broken PDF (SOURCE-6).

    The message is one line and starts with the document's name (its path, or ``<stdin>``).
    """


class PdfError(ChunkspecError, ValueError):
    """A file that is not a PDF, is encrypted, or whose text cannot be extracted."""


class NotRegularFile(ChunkspecError, OSError):
    """Not a regular file (a FIFO, a device, a socket, a folder); ``kind`` says which."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"not a regular file ({kind})")
        self.kind = kind

    def __str__(self) -> str:
        return f"not a regular file ({self.kind})"


class OverCap(ChunkspecError, ValueError):
    """More than ``cap`` bytes were read (or the regular file's size is over it: ``size``)."""

    def __init__(self, cap: int, size: int | None) -> None:
        super().__init__(cap, size)
        self.cap = cap
        self.size = size

    def __str__(self) -> str:
        shown = f"{self.size} bytes" if self.size is not None else f"more than {self.cap} bytes"
        return f"{shown} is over max_bytes ({self.cap})"


class JsonTextError(ChunkspecError, ValueError):
    """JSON text that a reader refuses; the message is one line starting with its place."""


class RepeatedKeyError(JsonTextError):
    """JSON text naming one key twice in one object: ``WHERE: repeated key 'K'`` (TRUST-2)."""


class CorpusError(ChunkspecError, ValueError):
    """A corpus file breaks the format: the message names the file, line and problem.

    ``argument`` is ``"directory"`` for a problem with the pages, ``"queries"`` for one with
    the questions file (the two arguments of :func:`~chunkspec.evaluation.load_corpus`).
    """

    def __init__(self, message: str, argument: str = "queries") -> None:
        super().__init__(message)
        self.argument = argument


class RetrieverUnavailable(ChunkspecError, ValueError):
    """The retriever's optional dependencies are not installed (the message names the extra)."""


class ContractViolation(ChunkspecError, AssertionError):
    """A chunker broke a contract rule; the message starts with the rule ID."""


class RecordFileError(ChunkspecError, ValueError):
    """A records file that cannot be read as records: one line naming the file, and the line
    or row (CLI-1, CLI-4, CLI-14); the command line reports it with exit status 2."""


class StoreError(ChunkspecError):
    """A vector store that cannot be opened, written or read as the STORE rules say: one
    line starting with the store's address (docs/spec/stores.md); the command line reports
    it with exit status 2."""


class IngestError(ChunkspecError):
    """A problem with a corpus run's inputs or output folder, said in one line (CLI-1): the
    command line reports it with exit status 2, :func:`chunkspec.ingest` raises it."""
