"""Exit codes of `converse`: one per kind of outcome, the same in every command.

0  done.
1  the command ran and the answer is no: an eval gate failed, `cassettes check` found a stale
   cassette, a benchmark missed a target under `--check`, an erase was not confirmed.
2  the command could not run as asked: a bad option or argument (Click's usage errors are 2
   too), bad input, a person, project, number, run or suite that does not exist, a database
   that cannot be opened or is at an older migration, a broken prompt or suite file.
3  a model provider or the network failed (`converse record` when calls fail).
130 interrupted (Ctrl-C); finished work is kept where the command says so.
"""

from __future__ import annotations

from pipeline.errors import ConverseError, ProviderError

EXIT_OK = 0
EXIT_CHECK = 1
EXIT_USAGE = 2
EXIT_PROVIDER = 3
EXIT_INTERRUPTED = 130

# The most specific class listed wins; every other ConverseError is a usage problem.
EXIT_CODES: dict[type[ConverseError], int] = {
    ProviderError: EXIT_PROVIDER,
    ConverseError: EXIT_USAGE,
}


def exit_code(exc: ConverseError) -> int:
    """The exit code for an error, from EXIT_CODES."""
    return next(EXIT_CODES[kind] for kind in type(exc).__mro__ if kind in EXIT_CODES)
