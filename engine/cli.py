"""The `hulkforge` command line: each subcommand lives in engine/commands/<name>.py with add_parser() and run()."""

from __future__ import annotations

# Only what main() needs before its try: Ctrl-C during these imports would still print a traceback, so the
# heavy ones (argparse, the commands) are imported inside it.
import signal
import sys
import threading
from typing import TYPE_CHECKING

from engine import __version__

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

# Subcommands in the order --help lists them. Each module defines
#   add_parser(subparsers) -> argparse.ArgumentParser   and   run(args) -> int
# and is imported only when needed, so `hulkforge validate` never pays for Qt or the simulator.
COMMANDS: dict[str, str] = {
    "edit": "engine.commands.edit",
    "validate": "engine.commands.validate",
    "odds": "engine.commands.odds",
    "play": "engine.commands.play",
    "simulate": "engine.commands.simulate",
    "sweep": "engine.commands.sweep",
    "tune": "engine.commands.tune",
    "levers": "engine.commands.levers",
    "train": "engine.commands.train",
    "replay": "engine.commands.replay",
    "render": "engine.commands.render",
    "export": "engine.commands.export",
    "import": "engine.commands.import_",
    "samples": "engine.commands.samples",
}

DESCRIPTION = """\
hulkforge: mission editor and Monte Carlo simulator for Space Hulk.

With no command, opens the editor on a sample mission. Every command that reads a mission
exits 2 with a one-line message when the file cannot be read, 1 when it breaks a rule."""


def _available() -> dict[str, str]:
    import importlib.util

    out = {}
    for name, module in COMMANDS.items():
        if importlib.util.find_spec(module) is not None:
            out[name] = module
    return out


def _version() -> str:
    """The release, and whether this install runs the compiled engine (docs/speed.md)."""
    from engine.compiled import engine_build

    return f"hulkforge {__version__}\nengine: {engine_build()}"


def _version_action() -> type[argparse.Action]:
    import argparse

    class VersionAction(argparse.Action):
        # argparse's own "version" action would look the engine's build up for every command, not only this one
        def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
            super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

        def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
            print(_version())
            parser.exit()

    return VersionAction


def build_parser() -> argparse.ArgumentParser:
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="hulkforge", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action=_version_action(), help="show the release and the engine's build, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _available().values():
        importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    from engine.sim.stopping import EXIT_CODES, raise_on_sigterm, restore_sigterm, stop_reason

    _printable_streams()
    old_sigterm = None
    try:
        old_sigterm = raise_on_sigterm()  # SIGTERM stops a batch as Ctrl-C does, keeping the games that finished
        return _main(argv)
    except KeyboardInterrupt as exc:
        # Ctrl-C (or SIGTERM) at any point, start-up (imports take a few tenths of a second) included: one line,
        # exit 130 (143). A second one while the interpreter shuts down must not print a traceback either.
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        reason = stop_reason(exc)
        print(f"hulkforge: {reason}", file=sys.stderr)
        return EXIT_CODES[reason]
    except BrokenPipeError:
        return 0
    finally:
        restore_sigterm(old_sigterm)


def _printable_streams() -> None:
    """Print what cannot be encoded (a lone surrogate in a file name from the OS) as escapes, never crash on it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            reconfigure(errors="backslashreplace")


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list == ["--version"]:
        # Answer before building the parser, which imports every command module.
        print(_version())
        return 0
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        if "edit" in _available():
            args = parser.parse_args(["edit"])
        else:
            parser.print_help()
            return 0
    import importlib

    module = importlib.import_module(_available()[args.command])
    code: int = module.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
