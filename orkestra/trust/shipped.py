"""Files a skill ships that run commands without being called scripts: every one of them is in scope.

A Makefile's recipes, a justfile's, a Dockerfile's ``RUN`` lines, a ``package.json``'s scripts, the
``run:``/``entry:``/``script:`` steps of CI and pre-commit YAML are shell commands: they are cut out
with their line numbers and go through the shell audit. ``package.json`` install hooks run by
themselves on ``npm install`` and are high whatever they run. Agent configuration (a Claude Code
``settings.json`` with hooks, a status line, a key helper, permission grants; an ``.mcp.json``)
would run commands in every session once copied into place: a skill has no business shipping it.

Two checks apply to every text file: package-index and download hosts spelt with look-alike
letters (``pypі.org`` with a Cyrillic і), and, for a binary, what its first bytes say it is.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import PurePosixPath

import yaml

from orkestra.trust.confusables import confusable_map, skeleton
from orkestra.trust.findings import Finding, excerpt

MAKEFILES = {"makefile", "gnumakefile", "bsdmakefile"}
JUSTFILES = {"justfile", ".justfile"}
DOCKERFILES = {"dockerfile", "containerfile"}
SHELL_RC = {".envrc", ".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".zshenv", ".bash_login"}
# YAML keys whose string values are shell commands (GitHub/GitLab CI, pre-commit, compose, Taskfile, tox).
_COMMAND_KEYS = {
    "run",
    "entry",
    "script",
    "before_script",
    "after_script",
    "command",
    "commands",
    "cmd",
    "cmds",
    "shell",
    "pre",
    "post",
}
_NPM_AUTO = {"preinstall", "install", "postinstall"}  # run by every `npm install` of the package
_NPM_LOCAL = {"prepublish", "preprepare", "prepare", "postprepare"}  # run by `npm install` in its folder
_AGENT_COMMAND_KEYS = {"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"}
MAX_JSON_DEPTH = 200


def kind_of(path: str) -> str | None:
    """The shipped-file kind of ``path`` (inside the skill folder), or None for an ordinary file."""
    name = PurePosixPath(path).name.lower()
    suffix = PurePosixPath(path).suffix.lower()
    if name in MAKEFILES or suffix == ".mk":
        return "make"
    if name in JUSTFILES:
        return "just"
    if name in DOCKERFILES or suffix in {".dockerfile", ".containerfile"} or name.startswith("dockerfile."):
        return "dockerfile"
    if name in SHELL_RC:
        return "shell-rc"
    if name == "package.json":
        return "package-json"
    if suffix in {".json", ".jsonc"}:
        return "json"
    if suffix in {".yml", ".yaml"}:
        return "yaml"
    if suffix == ".toml":
        return "toml"
    if suffix in {".ini", ".cfg", ".conf"} or name in {".gitconfig", "gitconfig", ".gitmodules"}:
        return "ini"
    return None


def audit_shipped(text: str, file: str, kind: str, shell) -> list[Finding]:
    """Findings of a shipped build, task, CI or configuration file (``shell``: the shell auditor)."""
    if kind == "make":
        return _commands(_make_recipes(text), file, shell)
    if kind == "just":
        return _commands(_just_recipes(text), file, shell)
    if kind == "dockerfile":
        return _commands(_docker_runs(text), file, shell)
    if kind == "package-json":
        return _package_json(text, file, shell) + _agent_config(text, file, shell)
    if kind == "json":
        return _agent_config(text, file, shell) + _commands(_json_commands(text), file, shell)
    if kind == "yaml":
        return _commands(_yaml_commands(text), file, shell)
    if kind == "toml":
        return _toml(text, file, shell)
    if kind == "ini":
        return _commands(_ini_commands(text), file, shell)
    return []


def _is_command_key(key: str) -> bool:
    """``command``, ``postCreateCommand``, ``sshCommand``, ``script``, ``run``, ``fsmonitor``…"""
    low = key.lower()
    return (
        low in _COMMAND_KEYS or low.endswith("command") or low in {"fsmonitor", "pager", "editor", "textconv"}
    )


def _json_commands(text: str, data: object = None) -> list[tuple[int, str]]:
    """String values under command-like keys anywhere in a JSON document (VS Code tasks, devcontainers);
    ``data``: the document already parsed (from TOML), ``text`` then only places the lines."""
    data = _load_json(text) if data is None else data
    found: list[tuple[int, str]] = []
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack and len(found) < 10_000:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            continue
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and _is_command_key(key):
                    values = value if isinstance(value, list) else [value]
                    strings = [v for v in values if isinstance(v, str)]
                    if strings:  # ["bash", "-c", "…"] is one command
                        found.append(
                            (_line_of_key(text, key), " ".join(strings) if len(strings) > 1 else strings[0])
                        )
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return found


def _ini_commands(text: str) -> list[tuple[int, str]]:
    """``key = value`` lines under command-like keys (tox ``commands =`` with its indented continuation,
    git ``sshCommand``/``fsmonitor``/``[alias]`` with ``!``)."""
    found: list[tuple[int, str]] = []
    lines = text.split("\n")
    section = ""
    for index, line in enumerate(lines):
        header = re.match(r"^\s*\[([^\]]+)\]", line)
        if header:
            section = header.group(1).strip().lower()
            continue
        pair = re.match(r"^\s*([\w.-]+)\s*[=:]\s*(.*)$", line)
        if not pair:
            continue
        key, value = pair.group(1), pair.group(2).strip()
        if section.startswith("alias") and value.startswith("!"):
            found.append((index + 1, value[1:]))
        elif _is_command_key(key):
            if value:
                found.append((index + 1, value))
            follow = index + 1
            while follow < len(lines) and lines[follow][:1] in {" ", "\t"} and lines[follow].strip():
                found.append((follow + 1, lines[follow].strip()))
                follow += 1
    return found


def _toml(text: str, file: str, shell) -> list[Finding]:
    """Commands in a TOML file, and agent configuration (Codex ``mcp_servers``, ``notify``)."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return []
    found = _commands(_json_commands(text, data), file, shell)
    keys = [k for k in ("mcp_servers", "notify") if data.get(k)]
    if keys:
        found.append(
            Finding(
                "config.agent-settings",
                "high",
                file,
                text.count("\n", 0, max(text.find(keys[0]), 0)) + 1,
                excerpt(", ".join(keys)),
                f"agent configuration ({', '.join(keys)}): starts programs in every session; a skill must not ship it",
            )
        )
    return found


def _commands(commands: list[tuple[int, str]], file: str, shell) -> list[Finding]:
    found: list[Finding] = []
    for line, command in commands:
        found.extend(shell(command, file, line))
    return found


_MAKE_SHELL = re.compile(r"\$[({]shell\s+((?:[^()]|\([^()]*\))*)[)}]")
_MAKE_INLINE = re.compile(r"^[^\t#=][^#=]*?:(?!=)[^;=]*;(.*)$")


def _make_recipes(text: str) -> list[tuple[int, str]]:
    """Recipe lines (a tab first, continuations joined; ``target: ; command`` too), without make's
    ``@``/``-``/``+`` prefixes and with ``$$`` read as the shell's ``$``; and every ``$(shell …)``,
    which make runs while it reads the file."""
    recipes: list[tuple[int, str]] = [
        (text.count("\n", 0, m.start()) + 1, m.group(1).replace("$$", "$"))
        for m in _MAKE_SHELL.finditer(text)
    ]
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        start = index
        index += 1
        if not line.startswith("\t"):
            inline = _MAKE_INLINE.match(line)
            if inline and inline.group(1).strip():
                recipes.append((start + 1, inline.group(1).strip().lstrip("@-+ ").replace("$$", "$")))
            continue
        while line.endswith("\\") and index < len(lines):
            line = line[:-1] + " " + lines[index].lstrip("\t")
            index += 1
        command = line.lstrip("\t").lstrip("@-+ ").replace("$$", "$")
        if command.strip():
            recipes.append((start + 1, command))
    return recipes


_JUST_HEADER = re.compile(r"^[@_A-Za-z][\w-]*(?:\s+[^:=]*)?:(?!=)")


def _just_recipes(text: str) -> list[tuple[int, str]]:
    """Indented lines under a ``name args:`` recipe header; ``{{var}}`` kept as written."""
    recipes: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line and not line[0].isspace():
            inside = bool(_JUST_HEADER.match(line))
        elif inside and line.strip():
            recipes.append((number, line.strip().lstrip("@-").replace("{{", "${").replace("}}", "}")))
    return recipes


def _docker_runs(text: str) -> list[tuple[int, str]]:
    """``RUN`` instructions (shell form), continuations joined, ``--mount=…`` style flags dropped."""
    runs: list[tuple[int, str]] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        start = index
        line = lines[index]
        index += 1
        while line.rstrip().endswith("\\") and index < len(lines):
            line = line.rstrip()[:-1] + " " + lines[index].strip()
            index += 1
        match = re.match(r"^\s*RUN\s+((?:--[\w-]+=\S+\s+)*)(.*)$", line, re.I)
        if match and not match.group(2).lstrip().startswith("["):
            runs.append((start + 1, match.group(2)))
    return runs


def _yaml_commands(text: str) -> list[tuple[int, str]]:
    """String values (or lists of strings) under command keys anywhere in a YAML document."""
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError, ValueError):
        return []
    commands: list[tuple[int, str]] = []
    stack = [node for node in documents if node is not None]
    seen = 0
    while stack and seen < 100_000:
        node = stack.pop()
        seen += 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and str(key.value).lower() in _COMMAND_KEYS:
                    values = value.value if isinstance(value, yaml.SequenceNode) else [value]
                    for item in values:
                        if isinstance(item, yaml.ScalarNode) and isinstance(item.value, str) and item.value:
                            line = item.start_mark.line + 1 + (1 if item.style in {"|", ">"} else 0)
                            commands.append((line, item.value))
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return sorted(commands)


_JSON_COMMENT = re.compile(r'("(?:[^"\\]|\\.)*")|//[^\n]*|/\*.{0,10000}?\*/', re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def _load_json(text: str) -> object:
    """Strict JSON, else JSON with comments and trailing commas (JSONC, as editors and agents accept)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        stripped = _JSON_COMMENT.sub(lambda m: m.group(1) or "", text)
        return json.loads(_TRAILING_COMMA.sub(r"\1", stripped))
    except (ValueError, RecursionError):
        return None


def _line_of_key(text: str, key: str) -> int:
    found = text.find(f'"{key}"')
    if found < 0:
        bare = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.M)
        found = bare.start() if bare else -1
    return text.count("\n", 0, found) + 1 if found >= 0 else 1


def _package_json(text: str, file: str, shell) -> list[Finding]:
    """Every npm script audited as shell; the ones npm runs on install by itself are high."""
    data = _load_json(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return []
    found: list[Finding] = []
    for name, command in scripts.items():
        if not isinstance(command, str):
            continue
        line = _line_of_key(text, name)
        found.extend(shell(command, file, line))
        if name in _NPM_AUTO | _NPM_LOCAL and command.strip():
            found.append(
                Finding(
                    "config.npm-lifecycle",
                    "high" if name in _NPM_AUTO else "medium",
                    file,
                    line,
                    excerpt(f"{name}: {command}"),
                    f"npm runs the {name!r} script by itself on install: code runs before anyone reads it",
                )
            )
    return found


def agent_config_keys(data: object) -> list[str]:
    """The settings of ``data`` (a parsed JSON file) that make an agent run commands or skip its checks."""
    if not isinstance(data, dict):
        return []
    found = []
    hooks = data.get("hooks")
    if isinstance(hooks, (dict, list, str)) and hooks:  # a plugin manifest may point at a hooks file
        found.append("hooks")
    if isinstance(data.get("statusLine"), dict) and data["statusLine"].get("command"):
        found.append("statusLine")
    found += [k for k in _AGENT_COMMAND_KEYS if data.get(k)]
    permissions = data.get("permissions")
    if isinstance(permissions, dict):
        allow = permissions.get("allow")
        broad = isinstance(allow, list) and any(
            isinstance(a, str) and re.fullmatch(r"Bash(?:\((?:\*|:\*)\))?", a.strip()) for a in allow
        )
        if permissions.get("defaultMode") in {"bypassPermissions", "acceptEdits"} or broad:
            found.append("permissions")
    servers = data.get("mcpServers")
    if isinstance(servers, (dict, str)) and servers:
        found.append("mcpServers")
    if data.get("enableAllProjectMcpServers") is True:
        found.append("enableAllProjectMcpServers")
    return found


def is_agent_config(text: str) -> bool:
    """Whether a JSON text is agent configuration that runs commands or grants permissions."""
    return bool(agent_config_keys(_load_json(text)))


def _agent_config(text: str, file: str, shell) -> list[Finding]:
    if '"' not in text:
        return []
    data = _load_json(text)
    keys = agent_config_keys(data)
    if not keys:
        return []
    found = [
        Finding(
            "config.agent-settings",
            "high",
            file,
            _line_of_key(text, keys[0]),
            excerpt(f"{', '.join(keys)}"),
            f"agent configuration ({', '.join(keys)}): once copied into place it runs commands or lifts "
            "permission checks in every session; a skill must not ship it",
        )
    ]
    for command in _hook_commands(data):
        found.extend(shell(command, file, _line_of_key(text, "command")))
    return found


def _hook_commands(data: object, depth: int = 0) -> list[str]:
    if depth > MAX_JSON_DEPTH:
        return []
    if isinstance(data, dict):
        own = [v for k, v in data.items() if k in {"command", *_AGENT_COMMAND_KEYS} and isinstance(v, str)]
        return own + [c for v in data.values() for c in _hook_commands(v, depth + 1)]
    if isinstance(data, list):
        return [c for v in data for c in _hook_commands(v, depth + 1)]
    return []


# --- look-alike hosts -------------------------------------------------------------------------

_HOST = re.compile(r"\b[a-z][a-z0-9+.-]{0,20}://(?:[^\s/@]{0,200}@)?([^\s/:?#\"'<>`)\]@]{1,253})", re.I)
_INDEX_FLAG = re.compile(r"(?:index-url|extra-index-url|--registry|registry\s*=|find-links|-i\s)", re.I)


def _label_is_lookalike(label: str) -> bool:
    """A host label that is not ASCII but reads as ASCII once look-alike letters are folded."""
    if label.isascii():
        return False
    table = confusable_map()
    folded = skeleton(label)
    mixed = any(c.isascii() and c.isalpha() for c in label) and any(ord(c) in table for c in label)
    return mixed or (folded.isascii() and folded != label)


def _decode_punycode(label: str) -> str:
    if label.lower().startswith("xn--"):
        try:
            return label[4:].encode("ascii").decode("punycode")
        except (UnicodeError, ValueError):
            return label
    return label


def scan_hosts(text: str, file: str) -> list[Finding]:
    """Hosts (in URLs) spelt with look-alike letters, raw or punycode: high, a package index the worst."""
    if text.isascii() and "xn--" not in text.lower():
        return []
    found: list[Finding] = []
    for match in _HOST.finditer(text):
        host = match.group(1)
        if host.isascii() and "xn--" not in host.lower():
            continue
        labels = [_decode_punycode(label) for label in host.split(".")]
        fake = [label for label in labels if _label_is_lookalike(label)]
        if not fake:
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line = text[line_start : line_end if line_end >= 0 else len(text)]
        shown = ", ".join(
            f"{c!r} {unicodedata.name(c, '?').title()}"
            for c in dict.fromkeys(c for lab in fake for c in lab if not c.isascii())
        )
        index = " package index" if _INDEX_FLAG.search(line) else ""
        found.append(
            Finding(
                "network.lookalike-host",
                "high",
                file,
                text.count("\n", 0, match.start()) + 1,
                excerpt(line),
                f"{index.strip() or 'host'} {host!r} imitates {skeleton('.'.join(labels))!r} with look-alike "
                f"letters ({shown})",
            )
        )
    return found


_INSTALL = re.compile(
    r"\b(?:pip3?|uv\s+pip|uv|pipx|poetry|npm|npx|pnpm|yarn|bun|gem|cargo|go|brew|apt(?:-get)?|conda|mamba)\s+"
    r"(?:install|add|get|i|run|exec|x)\b[^\n]*"
)


def scan_package_names(text: str, file: str) -> list[Finding]:
    """Package names in install commands spelt with look-alike letters (``pip install requеsts``)."""
    if text.isascii():
        return []
    found: list[Finding] = []
    for match in _INSTALL.finditer(text):
        for word in re.findall(r"[^\s\"'=<>]+", match.group(0)):
            if "://" in word or word.isascii():
                continue
            if any(_label_is_lookalike(part) for part in re.split(r"[@/.:_-]", word) if part):
                found.append(
                    Finding(
                        "network.lookalike-package",
                        "high",
                        file,
                        text.count("\n", 0, match.start()) + 1,
                        excerpt(match.group(0)),
                        f"package {word!r} imitates {skeleton(word)!r} with look-alike letters (typosquatting)",
                    )
                )
    return found


_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----[ \t]*\r?\n"
    r"(?:[\w-]+:[^\n]*\n)*[ \t]*[A-Za-z0-9+/=]{40,}"
)


def scan_private_keys(text: str, file: str) -> list[Finding]:
    """A private key shipped in a skill: someone's credential, and `skills ingest` would commit it."""
    match = _PRIVATE_KEY.search(text) if "PRIVATE KEY" in text else None
    if match is None:
        return []
    return [
        Finding(
            "file.private-key",
            "high",
            file,
            text.count("\n", 0, match.start()) + 1,
            excerpt(text[match.start() : match.start() + 40]),
            "a private key: a skill must never ship one (a hard link or copy of someone's credential?)",
        )
    ]


# --- binary files -----------------------------------------------------------------------------

# First bytes of code a machine or an interpreter runs, and of archives that can carry any of it.
_CODE_MAGIC = (
    (b"\x7fELF", "an ELF executable"),
    (b"MZ", "a Windows executable"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xce\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class"),
    (b"\xfe\xed\xfa", "a Mach-O executable"),
    (b"\x00asm", "a WebAssembly module"),
    (b"PK\x03\x04", "a zip archive (or jar / wheel)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ", "an xz archive"),
    (b"7z\xbc\xaf", "a 7-zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"\x28\xb5\x2f\xfd", "a zstd archive"),
    (b"!<arch>", "an ar archive (or .deb)"),
)
# First bytes of media and documents: data a skill may well ship (images, PDFs, fonts).
_DATA_MAGIC = (
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"GIF8",
    b"RIFF",
    b"%PDF",
    b"\x00\x01\x00\x00",
    b"OTTO",
    b"wOFF",
    b"wOF2",
    b"ID3",
    b"fLaC",
    b"OggS",
    b"\x1aE\xdf\xa3",
    b"II*\x00",
    b"MM\x00*",
    b"BM",
    b"\x00\x00\x01\x00",
    b"SQLite format 3",
)
_CODE_SUFFIXES = {
    ".pyc",
    ".pyo",
    ".so",
    ".dylib",
    ".dll",
    ".exe",
    ".bin",
    ".class",
    ".jar",
    ".whl",
    ".node",
    ".o",
    ".a",
}


def classify_binary(data: bytes, path: str, executable: bool) -> tuple[str, str]:
    """(severity, description) of a binary file a skill ships: compiled code or an archive is high
    (nothing in it can be reviewed, all of it can run), so is any unknown binary marked executable or
    under scripts/; known media and documents are info; any other binary is medium."""
    suffix = PurePosixPath(path).suffix.lower()
    for magic, what in _CODE_MAGIC:
        if data.startswith(magic):
            return "high", f"{what}: compiled code or an archive cannot be reviewed"
    if suffix in _CODE_SUFFIXES or _is_pyc(data):
        return "high", "compiled code cannot be reviewed"
    if any(data.startswith(magic) for magic in _DATA_MAGIC):
        if executable:
            return "medium", "a media or document file marked executable"
        return "info", "binary media or document: not reviewed"
    if executable or PurePosixPath(path).parts[:1] in {("scripts",), ("bin",), ("tools",), ("hooks",)}:
        return "high", "an unknown binary that can be run: cannot be reviewed"
    return "medium", "binary file: cannot be reviewed"


def _is_pyc(data: bytes) -> bool:
    return len(data) >= 16 and data[2:4] == b"\r\n" and 2_900 <= int.from_bytes(data[:2], "little") <= 4_000
