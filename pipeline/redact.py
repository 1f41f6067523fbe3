"""One rule for what never leaves the process: passwords, keys and tokens.

Applied before anything is printed or written — a provider's label, run.json's argv and
provider options, a run store's rows and error lines — so a record says which server and which
options a run used, never the credentials it used them with:

- a URL's password (`scheme://user:PASSWORD@host`), up to the last `@` before the host, so a
  password holding an unescaped `@` is hidden whole; the user name and host stay;
- a URL query parameter whose name says key, token, secret or password (`?api_key=...`);
- an option whose name says key, token, secret or password (`api_key`, `access_token`,
  `client_secret`; not `max_tokens`, a count), given as `NAME=VALUE` or in a mapping;
- anything shaped like an API key (`sk-...`, `sk-ant-...`) or a bearer token, wherever it is.

Each is replaced by `REDACTED`, which a resumed run reads as "not given" (the provider then
takes the value from its environment variable).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

REDACTED = "***"

# Words of an option's name that make its value a secret. "tokens" (plural) is a count
# (max_tokens), not a credential.
_SECRET_WORDS = frozenset({"key", "apikey", "token", "secret", "password", "passwd", "pwd"})
_SECRET_PARTS = ("secret", "password", "passwd", "apikey", "api_key", "api-key")

# scheme://user:PASSWORD@host — the password runs to the last "@" before the next space or
# the next URL ("://"), so an unescaped "@", "/" or "#" inside it is hidden too. A candidate
# that starts as a port followed by a path (http://h:8080/a@b) is a host and a path, not a
# password, and is left alone.
# Found by a scan, not one pattern: a pattern for "the last @" backtracks quadratically.
_URL_HEAD = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@]*:")
_URL_END = re.compile(r"\s|[A-Za-z][A-Za-z0-9+.\-]*://")
_PORT_AND_PATH = re.compile(r"\d+(?:[/?#]|$)")
# NAME= after a separator: an option (`openai-compatible.api_key=`, `--api-key=`) or a query
# parameter (`?token=`, `&key=`), whose value runs to the next space (or `&`/`#` in a query).
_OPTION = re.compile(r"(?:^|(?<=[\s.\-,;?&]))(?P<name>[A-Za-z][\w\-]*)=")
_OPTION_END = re.compile(r"\s")
_QUERY_END = re.compile(r"[\s&#]")
_KEY_SHAPED = re.compile(r"\bsk-(?:ant-)?[A-Za-z0-9_\-]{6,}")
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/\-]{8,}")


@functools.lru_cache(maxsize=1024)
def is_secret_name(name: str) -> bool:
    """Whether an option or parameter called `name` holds a credential."""
    lowered = name.lower()
    if any(part in lowered for part in _SECRET_PARTS):
        return True
    return any(word in _SECRET_WORDS for word in re.split(r"[^a-z0-9]+", lowered))


def _urls(text: str) -> str:
    """Each URL's password hidden, up to the last "@" of the URL (linear in the text)."""
    out: list[str] = []
    pos = 0
    for head in _URL_HEAD.finditer(text):
        if head.start() < pos:
            continue
        end = _URL_END.search(text, head.end())
        at = text.rfind("@", head.end(), end.start() if end else len(text))
        if at == -1 or _PORT_AND_PATH.match(text, head.end(), at):
            continue
        out += [text[pos : head.end()], REDACTED]
        pos = at
    return "".join(out) + text[pos:]


def _options(text: str) -> str:
    """Each NAME=VALUE whose name says it is a secret, with VALUE hidden. A scan, not one
    substitution: `--provider-option=claude.api_key=...` holds a secret option inside the
    value of one that is not."""
    out: list[str] = []
    pos = 0
    for found in _OPTION.finditer(text):
        if found.start() < pos or not is_secret_name(found["name"]):
            continue
        query = found.start() > 0 and text[found.start() - 1] in "?&"
        end = (_QUERY_END if query else _OPTION_END).search(text, found.end())
        out += [text[pos : found.end()], REDACTED]
        pos = end.start() if end else len(text)
    return "".join(out) + text[pos:]


def _maybe(text: str) -> bool:
    """Whether any rule below could match: most text is let through after this check alone
    (substring tests on the lowered text; a case-insensitive pattern was ten times slower)."""
    low = text.lower()
    return (
        "://" in low
        or "key" in low
        or "token" in low
        or "secret" in low
        or "pass" in low
        or "pwd" in low
        or "sk-" in low
        or "bearer" in low
    )


@functools.lru_cache(maxsize=4096)  # a run's rows repeat their labels and reasons
def redact(text: str) -> str:
    """`text` with every password, key and token replaced by REDACTED."""
    if not text or not _maybe(text):
        return text
    if "://" in text:
        text = _urls(text)
    if "=" in text:
        text = _options(text)
    if "sk-" in text:
        text = _KEY_SHAPED.sub(REDACTED, text)
    return _BEARER.sub(rf"\g<1>{REDACTED}", text)


def redact_value(name: str, value: Any) -> Any:
    """An option's value as a record may keep it: REDACTED when its name says it is a
    secret; text redacted; mappings and lists walked."""
    if is_secret_name(name) and value not in (None, ""):
        return REDACTED
    return redact_data(value)


def redact_data(value: Any) -> Any:
    """A JSON-like value with every secret in it replaced (keys of mappings judged by name)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {k: redact_value(str(k), v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_data(v) for v in value]
    return value


def redact_strings(value: Any) -> Any:
    """A JSON-like value with `redact` applied to every string in it; keys are not judged by
    name (a record's own fields, such as `row_key`, are not options)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {k: redact_strings(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_strings(v) for v in value]
    return value


def redact_argv(argv: list[str]) -> list[str]:
    """A command line as a record keeps it: each argument redacted, and the value after an
    option whose name says key, token, secret or password (`--api-key VALUE`)."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        out.append(redact(arg))
        if arg.startswith("--") and "=" not in arg and is_secret_name(arg[2:]):
            hide_next = True
    return out


def is_redacted(value: Any) -> bool:
    """Whether a stored value was a secret this module hid (a resumed run drops it)."""
    return isinstance(value, str) and REDACTED in value


def unredacted(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options read back from a record, without the ones it hid: the provider then reads
    those from its environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, ...)."""
    return {k: v for k, v in options.items() if not is_redacted(v)}
