"""Script audit dispatch: every bundled file goes to the analyser for its language.

Python goes through ``ast``, shell through ``shlex``; JavaScript/TypeScript and other
scripting languages get the regex pass of ``regex_audit`` (the last resort) plus the
encoded-payload and invisible-character checks every text file gets.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from orkestra.trust.findings import Finding
from orkestra.trust.injection import scan_comments, scan_encoded_text, scan_markdown, scan_text
from orkestra.trust.invisible import scan_invisible
from orkestra.trust.js_audit import audit_js
from orkestra.trust.python_audit import audit_python, audit_shell_script, fetched_files_python
from orkestra.trust.regex_audit import regex_scan
from orkestra.trust.shell_audit import fetched_files
from orkestra.trust.shipped import (
    audit_shipped,
    kind_of,
    scan_hosts,
    scan_package_names,
    scan_private_keys,
)

MARKDOWN = {".md", ".markdown", ".mdx"}
PYTHON = {".py", ".pyw"}
SHELL = {".sh", ".bash", ".zsh", ".ksh", ".command"}
JS = {".js", ".mjs", ".cjs", ".ts", ".mts", ".jsx", ".tsx"}
OTHER_SCRIPTS = {".rb", ".pl", ".php", ".ps1", ".psm1", ".bat", ".cmd", ".lua"}


def language_of(path: str, text: str) -> str:
    """'markdown', 'python', 'shell', 'js', 'script' or 'text' from the suffix or the shebang."""
    suffix = PurePosixPath(path).suffix.lower()
    first = text[:80].split("\n", 1)[0]
    if suffix in MARKDOWN:
        return "markdown"
    if suffix in PYTHON or (first.startswith("#!") and "python" in first):
        return "python"
    if (
        suffix in SHELL
        or kind_of(path) == "shell-rc"
        or (first.startswith("#!") and re.search(r"\b(?:ba|z|k|da)?sh\b", first))
    ):
        return "shell"
    if suffix in JS or (first.startswith("#!") and "node" in first):
        return "js"
    if suffix in OTHER_SCRIPTS or first.startswith("#!"):
        return "script"
    return "text"


def skill_downloads(texts: dict[str, str]) -> frozenset[str]:
    """Every file name any shell or Python file of a skill downloads (path inside the skill → text)."""
    found: set[str] = set()
    for within, text in texts.items():
        language = language_of(within, text)
        if language == "shell":
            found |= fetched_files(text)
        elif language == "python":
            found |= fetched_files_python(text)
    return frozenset(found)


def audit_file(
    text: str, file: str, within: str | None = None, downloads: frozenset[str] = frozenset()
) -> list[Finding]:
    """Every finding of one bundled file, by its language (``within``: its path inside the skill folder).

    Every file is in scope: build, task, CI and configuration files have their commands audited as
    shell (``shipped``), script comments are read as prose, and hosts are checked in all of them."""
    language = language_of(file, text)
    hosts = scan_hosts(text, file) + scan_package_names(text, file) + scan_private_keys(text, file)
    if language == "markdown":
        return scan_markdown(text, file) + hosts
    findings = (scan_text(text, file) if language == "text" else _common(text, file)) + hosts
    if language in _COMMENTED:
        findings += scan_comments(text, file, language)
    if language == "python":
        findings += audit_python(text, file)
    elif language == "shell":
        findings += audit_shell_script(text, file, within=within, downloads=downloads)
    elif language in {"js", "script"}:
        findings += regex_scan(text, file)
    if language == "js":
        findings += audit_js(text, file, _shell)
    kind = kind_of(within or file)
    if kind is not None and language == "text":
        findings += audit_shipped(
            text,
            file,
            kind,
            lambda command, at, line: audit_shell_script(command, at, line, downloads=downloads),
        )
    return findings


_COMMENTED = {"python", "shell", "js", "script"}


def _shell(command: str, file: str, line: int) -> list[Finding]:
    return audit_shell_script(command, file, line)


def _common(text: str, file: str) -> list[Finding]:
    return scan_invisible(text, file) + scan_encoded_text(text, file)
