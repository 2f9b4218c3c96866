"""The ``chunkspec`` program: the top-level parser over every subcommand, and ``main``,
which turns each error into one line and an exit status (CLI-1, CLI-13)."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import NoReturn

from .._version import __version__
from . import (
    _chunk_command,
    _conformance_command,
    _diff_command,
    _eval_command,
    _ingest_command,
    _pack_command,
    _pages_command,
    _split_command,
    _vectors_command,
    _view_command,
    _window_command,
)
from ._io import CliError, one_line, os_reason
from ._signals import SIGNALS, Interrupted, interrupted_line, stop_on_signals

__all__ = ["build_parser", "main", "program"]

#: Subcommand modules, in the order ``--help`` lists them.
_COMMANDS = (
    _split_command,
    _pack_command,
    _chunk_command,
    _window_command,
    _pages_command,
    _view_command,
    _ingest_command,
    _diff_command,
    _vectors_command,
    _conformance_command,
    _eval_command,
)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` on one line and exit 2."""
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every registered subcommand."""
    parser = _Parser(
        prog="chunkspec",
        description="Reference RAG chunking and context packing (see docs/cli.md).",
    )
    parser.add_argument("--version", action="version", version=f"chunkspec {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in _COMMANDS:
        command.register(sub)
    return parser


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of subcommand ``command``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    raise LookupError(command)  # build_parser always adds the subcommands


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return its exit status (0 ok, 1 abstained, 2 error, 130/143)."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # CLI-1: the subcommand's own error line, ``chunkspec CMD: error: ...``
        _subparser(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
    run: Callable[[argparse.Namespace], int] = args.run
    with stop_on_signals(args.command) as reported:
        try:
            return run(args)
        except (CliError, TypeError, ValueError) as error:
            print(f"chunkspec {args.command}: error: {one_line(str(error))}", file=sys.stderr)
            return 2
        except KeyboardInterrupt as interrupt:
            # CLI-13: SIGINT (Ctrl-C) or SIGTERM is one line and exit 128 + the signal (130,
            # 143); output files are only ever renamed into place at the end, and workers
            # are killed, so nothing half-written and no process is left behind.
            if not isinstance(interrupt, Interrupted):  # raised by hand, as in tests
                interrupt = Interrupted(signal.SIGINT)
            sys.stderr.write(interrupted_line(args.command, interrupt.signum))
            sys.stderr.flush()
            reported()
            return interrupt.status
        except BrokenPipeError:
            # The reader went away (e.g. `| head`): not our error. Point stdout at devnull so
            # the interpreter's final flush does not fail again (Python docs, "SIGPIPE").
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0
        except OSError as error:  # TRUST-26: a failed write (a full disk) no command named
            where = f"{error.filename}: " if error.filename else ""
            message = f"{where}cannot write: {os_reason(error)}"
            print(f"chunkspec {args.command}: error: {one_line(message)}", file=sys.stderr)
            return 2


def program() -> NoReturn:
    """The ``chunkspec`` program: :func:`main`, then exit with its status.

    CLI-13: once the run is over, a signal ends the process at once with 128 + its number
    (the result is in place, the last line printed); the exit runs the ``atexit`` functions
    but not the interpreter's tear-down, during which Python puts the default handlers back.
    """
    status = main()
    # After a signal, another keeps the first one's status (CLI-13); else its own.
    stopped = status in (128 + signal.SIGINT, 128 + signal.SIGTERM)
    for signum in SIGNALS:
        signal.signal(signum, functools.partial(_exit_at_once, status if stopped else None))
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


def _exit_at_once(status: int | None, signum: int, frame: FrameType | None) -> None:
    """End the process now with ``status``, or 128 + ``signum`` when it is None."""
    os._exit(128 + signum if status is None else status)
