"""Obvious secrets out of parameter blobs before they are stored; pure, stdlib-only.

Covers API keys and tokens with well-known prefixes, ``Authorization:`` headers, AWS key
pairs, PEM private keys, credentials in URLs, ``--password x`` flags, ``.env``-style
``SECRET_KEY=value`` assignments and JSON keys that name a secret.
"""

from __future__ import annotations

import re
from typing import Any

MASK = "[REDACTED]"
MAX_STRING = 2000  # characters kept of any one string in a blob
MAX_KEY = 200  # characters kept of a mapping key
# Only this much of a string is searched (a secret straddling MAX_STRING is still masked); with
# every pattern linear in its input, redaction costs O(MAX_STRING) however long the string.
SCAN = MAX_STRING + 512

# A name that ends with a secret word: DB_PASSWORD, OPENAI_API_KEY, GITHUB_TOKEN, client_secret,
# STRIPE_SECRET_KEY
# (but not token_count, tokenizer or author).
SECRET_NAME = (
    r"[A-Za-z0-9_.-]*(?:pass(?:word|wd)|secret|token|credentials?"
    r"|(?:api|access|private|secret|signing|encryption|master|client)[_-]?key)"
)
# Matches start only where a run of name characters starts: without it each position inside a
# long token would rescan the rest of it (quadratic; a 40 KB token took seconds).
NAME_START = r"(?<![A-Za-z0-9_.-])"
VALUE = r"""(?:"[^"]*"|'[^']*'|[^\s'",;]+)"""
SECRET_FLAG = re.compile(rf"^--?{SECRET_NAME}$", re.IGNORECASE)  # argv lists: ["--token", "x"]
SECRET_KEY = re.compile(rf"^(?:{SECRET_NAME}|(?:proxy-)?authorization|cookie|x-api-key)$", re.IGNORECASE)

# (pattern, replacement) applied in order to every string.
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.DOTALL),
        MASK,
    ),
    (
        re.compile(
            r"(?i)\b(authorization|proxy-authorization|x-api-key|api-key)(\s*[:=]\s*)"
            r"(?:(bearer|basic|token)\s+)?[^\s'\",;]+"
        ),
        lambda m: f"{m[1]}{m[2]}{m[3] + ' ' if m[3] else ''}{MASK}",
    ),
    (re.compile(r"\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b"), MASK),
    (
        re.compile(
            r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
            r"|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}"
            r"|pa-[A-Za-z0-9_-]{30,}|hf_[A-Za-z0-9]{30,}|[sr]k_(?:live|test)_[A-Za-z0-9]{8,})"
        ),
        MASK,
    ),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), MASK),  # JWT
    (re.compile(r"(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@"), rf"\1{MASK}@"),
    (re.compile(rf"(?i){NAME_START}(--?{SECRET_NAME}(?:=|\s+))(?!{re.escape(MASK)}){VALUE}"), rf"\1{MASK}"),
    (re.compile(rf"(?i){NAME_START}({SECRET_NAME}\s*[=:]\s*)(?!{re.escape(MASK)}){VALUE}"), rf"\1{MASK}"),
)


def redact_text(text: str) -> str:
    """``text`` with every recognised secret replaced by ``[REDACTED]``, truncated."""
    total = len(text)
    text = text[:SCAN]
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    if total <= MAX_STRING and len(text) <= MAX_STRING:
        return text
    return text[:MAX_STRING] + f"…[+{total - min(total, MAX_STRING)} chars]"


def _key(key: Any) -> Any:
    return key if not isinstance(key, str) or len(key) <= MAX_KEY else key[: MAX_KEY - 1] + "…"


def redact(value: Any) -> Any:
    """A copy of a JSON value with secrets masked: by key name and inside every string."""
    if isinstance(value, dict):
        return {
            _key(k): (
                MASK
                if SECRET_KEY.match(str(k)[:MAX_KEY]) and isinstance(v, (str, int)) and v != ""
                else redact(v)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [
            MASK if i and isinstance(value[i - 1], str) and SECRET_FLAG.match(value[i - 1]) else redact(v)
            for i, v in enumerate(value)
        ]
    if isinstance(value, str):
        return redact_text(value)
    return value
