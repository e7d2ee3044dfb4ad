"""Shell script audit with a real tokenizer (``shlex``): pipelines, redirects, substitutions.

Each logical line (continuations joined, heredoc bodies set aside) is tokenized, split into
pipelines and stages, and every stage is checked for downloads piped to an interpreter,
uploads of files or secrets, environment dumps, credential reads, destructive commands and
writes outside the skill folder. ``$(…)``, backticks and ``<(…)`` are analysed on their own
and their nature (remote content, secrets, decoded data) flows into the enclosing command.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from orkestra.trust.findings import Finding, Severity, excerpt
from orkestra.trust.patterns import (
    DISK_TOOLS,
    FETCHERS,
    INTERPRETERS,
    NETCATS,
    PERSISTENCE_PATH,
    SECRET_VAR,
    SENSITIVE_PATH,
    WRAPPERS,
    is_outside_write_target,
)

# Audits the code of ``python -c CODE`` (text, file, line); ``python_audit`` passes its own, so this
# module never imports it (python_audit audits the shell strings it finds with this one).
PythonAuditor = Callable[[str, str, int], "list[Finding]"]

# A line without any of these cannot trigger a rule, so it is not tokenized at all.
_RISKY = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|https?|iwr|irm|invoke-\w+|lwp-download|httpie|sh|bash|zsh|dash|ksh|fish|python\d?|"
    r"perl|ruby|node|php|pwsh|powershell|iex|source|eval|exec|nc|ncat|netcat|socat|telnet|env|printenv|export|set|"
    r"rm|git|dd|mkfs\S*|fdisk|sfdisk|parted|wipefs|shred|mke2fs|mkswap|diskutil|chmod|chown|find|crontab|tee|cp|mv|"
    r"install|ln|rsync|scp|base64|xxd|openssl|sudo|doas|dig|nslookup|pwsh)\b|<<|[>~]|/dev/|/inet/|/etc/|/root|/home/|/Users/|"
    r"\$\{?(?:HOME|[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL))|"
    r"^\s*\.\s|:\s*\(\s*\)",
    re.I | re.M,
)
_SUBST = re.compile(r"\$\(([^()]*)\)|`([^`]*)`|<\(([^()]*)\)")
_PLACEHOLDER = re.compile(r"__SUBST(\d+)__")
MAX_SUBSTITUTIONS = 100
_CHOICES = re.compile(r"\{[\w@.-]+(?:\|[\w@.-]+)+\}")  # usage notation: `tool completion {bash|zsh}`
_DYNAMIC_START = re.compile(
    r"^\s*(?:[A-Za-z_]\w*=\S*\s+)*[\"']?(?:\$|`)"
)  # the command word itself is computed
_FORK_BOMB = re.compile(r":\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:")
_SEPARATORS = {";", "&&", "||", "&", ";;", "\n"}
_PIPES = {"|", "|&"}
_WRITE_REDIRECTS = {">", ">>", ">|", "&>", "&>>"}
_DANGEROUS_RM = {
    "/",
    "/*",
    "~",
    "~/",
    "~/*",
    "$HOME",
    "$HOME/",
    "$HOME/*",
    "${HOME}",
    "${HOME}/",
    "${HOME}/*",
    "..",
    "../",
    "../*",
    "*",
    ".",
    "./",
    "./*",
    ".*",
}
# origin/my-feature: resetting a branch to what was pushed of it (not to the shared default branch)
_FEATURE_REMOTE = re.compile(r"(?:origin|upstream|fork)/(?!(?:main|master|trunk|develop|HEAD)$)[\w.][\w./-]*")
_GIT_HIJACK_KEYS = (
    "core.hookspath",
    "core.sshcommand",
    "credential.helper",
    "core.fsmonitor",
    "alias.",
    "core.pager",
    "core.editor",
    "url.",
)
# Reserved words that may precede a command: ``then curl … | sh``, ``do eval "$l"``, ``! grep``.
_KEYWORDS = {"then", "do", "else", "elif", "if", "while", "until", "!", "{", "(", "time", "coproc"}
_LOOKUPS = {"dig", "nslookup", "host", "drill", "ping", "ping6", "traceroute", "getent", "whois"}
# echo 'export API_KEY="…"' >> ~/.bashrc: a variable, no command (no $(), backticks, ;, |, &, alias, function)
_PLAIN_EXPORT = re.compile(r"^(?:export\s+)?[A-Za-z_]\w*=[^;&|`$<>()\n]*$")
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish"}
_VERIFIERS = {"sha256sum", "sha512sum", "shasum", "gpg", "gpgv", "cosign", "minisign", "sigstore"}
_UPLOAD_FLAGS = {
    "-d",
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "-F",
    "--form",
    "-T",
    "--upload-file",
    "--post-file",
    "--post-data",
    "--body-file",
    "--body-data",
}


@dataclass
class _Subst:
    """What a command substitution produces: remote content, secrets, decoded bytes."""

    text: str
    fetches: bool = False
    secret: bool = False
    decodes: bool = False


@dataclass
class _Script:
    """What earlier lines of one script did: files downloaded, whether a checksum was verified, and
    which variables hold the script's own folder (``here=$(dirname "$0")``), as skill-relative paths."""

    downloads: set[str] = field(default_factory=set)
    verified: bool = False
    location: str = ""  # the script's folder relative to the skill root ("scripts")
    dirs: dict[str, str] = field(default_factory=dict)
    literals: dict[str, str] = field(default_factory=dict)  # a=cu; b=rl: "$a$b" runs curl
    generated: set[str] = field(default_factory=set)  # step=$(cat steps.txt): a command's output
    generated_files: set[str] = field(default_factory=set)  # files a command wrote: python3 gen.py > x.sh
    python: PythonAuditor | None = None  # for ``python -c CODE``; None leaves that code unaudited


_ASSIGN = re.compile(r"^\s*(?:(?:local|readonly|export|declare(?:\s+-\w+)*)\s+)?([A-Za-z_]\w*)=(\S.*?)\s*$")
_LITERAL = re.compile(
    r"^\s*(?:(?:local|readonly|export|declare)\s+)?([A-Za-z_]\w*)=(?:'([^']*)'|\"([^\"$`\\]*)\"|([^\s'\"$`;|&<>()\\]*))\s*$"
)
_EXPANSION = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
_SELF = re.compile(r"\$\{?(?:0|BASH_SOURCE(?:\[0\])?)(?:%/\*)?\}?")
_SELF_SUFFIX = re.compile(r"[)}]((?:/[\w.-]+)+)")
_VAR_PATH = re.compile(r"^\$\{?([A-Za-z_]\w*)\}?((?:/[^/\s]*)*)$")
_SKILL = "/<skill>"


def _track_dirs(line: str, script: _Script) -> None:
    """Remember ``here="$(cd "$(dirname "$0")" && pwd)"`` style assignments (and ``root="$here/.."``)."""
    match = _ASSIGN.match(line)
    if match is None:
        return
    name, value = match.group(1), match.group(2).strip("'\"")
    if _SELF.search(value) and ("dirname" in value or "%/*" in value):
        suffix = _SELF_SUFFIX.search(value[_SELF.search(value).end() :])
        script.dirs[name] = posixpath.normpath(
            posixpath.join(_SKILL, script.location, (suffix.group(1) if suffix else "").lstrip("/"))
        )
        return
    derived = _VAR_PATH.match(value)
    if derived and derived.group(1) in script.dirs:
        script.dirs[name] = posixpath.normpath(script.dirs[derived.group(1)] + derived.group(2))
    else:
        script.dirs.pop(name, None)


def _track_literal(line: str, script: _Script) -> bool:
    """Remember ``name=literal`` assignments; True when the line is one (nothing else to analyse)."""
    match = _LITERAL.match(line)
    if match is None:
        match = _ASSIGN.match(line)
        if match:
            script.literals.pop(match.group(1), None)
            value = match.group(2).strip("'\"")
            inner = re.match(r"^(?:\$\(|`)(.*?)(?:\)|`)?$", value)
            if inner and not _PATH_HELPERS.match(inner.group(1).lstrip("<")):
                script.generated.add(match.group(1))
            else:
                script.generated.discard(match.group(1))
        return False
    value = next((g for g in match.groups()[1:] if g is not None), "")
    if len(value) <= 2_000:
        script.literals[match.group(1)] = value
    return True


def _expand(line: str, script: _Script) -> str:
    """``line`` with variables that hold a literal replaced by it, so a command assembled from pieces
    (``$a$b -s URL | $c$d``) is judged as the command it runs."""
    if not script.literals or "$" not in line:
        return line
    return _EXPANSION.sub(
        lambda m: script.literals.get(m.group(1) or m.group(2), m.group(0)).replace("$", "\\$"), line
    )


def _resolve(target: str, script: _Script) -> str:
    """A deletion target with the script-folder variables and ``..`` resolved: ``<skill>/…`` inside the
    skill folder, an absolute or ``~`` path, a climbing relative path, or the target as written."""
    match = _VAR_PATH.match(target)
    if match and match.group(1) in script.dirs:
        full = posixpath.normpath(script.dirs[match.group(1)] + match.group(2))
        return full.replace(_SKILL, "<skill>", 1) if (full + "/").startswith(_SKILL + "/") else full
    if ".." not in target or (target.startswith("$") and not target.startswith(("$HOME", "${HOME}"))):
        return target
    home = re.match(r"^(?:~|\$HOME|\$\{HOME\})(?=/|$)", target)
    if home:
        full = posixpath.normpath("/<home>" + target[home.end() :])
        return "/" if full == "/" else full.replace("/<home>", "~", 1) if full.startswith("/<home>") else full
    return posixpath.normpath(target) + ("/" if target.endswith("/") and not target.endswith("../") else "")


@dataclass
class _Line:
    file: str
    line: int
    raw: str
    script: _Script = field(default_factory=_Script)
    substs: list[_Subst] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def add(self, rule: str, severity: Severity, message: str) -> None:
        self.findings.append(
            Finding(f"shell.{rule}", severity, self.file, self.line, excerpt(self.raw), message)
        )


def fetched_files(text: str) -> set[str]:
    """Names of the files a shell script downloads (``curl -o F``, ``wget URL``, ``curl URL > F``): another
    file of the skill that runs one of them runs a download (a command split across two files)."""
    lines = [line for line in text.split("\n") if _FETCH_WORD.search(line)]
    if not lines:
        return set()
    script = _Script()
    for line in lines:
        _analyse_line(line, _Line("", 1, line, script))
    return script.downloads


_FETCH_WORD = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|iwr|irm|invoke-webrequest|lwp-download|http|https)\b", re.I
)


def audit_shell(
    text: str,
    file: str,
    base_line: int = 1,
    within: str | None = None,
    python: PythonAuditor | None = None,
    downloads: frozenset[str] = frozenset(),
) -> list[Finding]:
    """Findings for a shell script (or a shell code block starting at ``base_line``).

    ``within``: the script's path inside its skill folder (default: guessed from ``file``), so
    ``rm -rf "$here/../build"`` can be resolved against the skill folder. ``python`` audits the
    code of ``python -c CODE`` (``python_audit.audit_shell_script`` passes ``audit_python``).
    """
    findings: list[Finding] = []
    lines = text.split("\n")
    script = _Script(location=_location(file, within), python=python, downloads=set(downloads))
    index = 0
    while index < len(lines):
        start = index
        logical = lines[index]
        while logical.endswith("\\") and index + 1 < len(lines):
            index += 1
            logical = logical[:-1] + " " + lines[index]
        index += 1
        if "=" in logical:
            _track_dirs(logical, script)
            if _track_literal(logical, script):
                continue
        logical = _CHOICES.sub("CHOICE", _expand(logical, script))
        if not script.downloads and not _RISKY.search(logical) and not _DYNAMIC_START.match(logical):
            continue
        record = _Line(file, base_line + start, logical.strip(), script)
        delimiter, runs_body = _analyse_line(logical, record)
        findings.extend(record.findings)
        if delimiter:
            body_start = index
            while index < len(lines) and lines[index].strip() != delimiter:
                index += 1
            if runs_body:
                body = "\n".join(lines[body_start:index])
                findings.extend(audit_shell(body, file, base_line + body_start, python=python))
            index += 1
    return findings


def _location(file: str, within: str | None) -> str:
    if within is not None:
        return within.rpartition("/")[0]
    parent = file.rpartition("/")[0].rpartition("/")[2]
    return parent if parent in {"scripts", "bin", "tools", "hooks"} else ""


def audit_argv(
    words: list[str], file: str, line: int, raw: str, python: PythonAuditor | None = None
) -> list[Finding]:
    """Findings for one command given as an argument vector (e.g. ``subprocess.run([...])``)."""
    record = _Line(file, line, raw, _Script(python=python))
    _analyse_stage(words, [], record, piped_from=[], pipeline_has_network=False)
    return record.findings


def _analyse_line(logical: str, record: _Line) -> tuple[str, bool]:
    """Analyse one logical line; returns (heredoc delimiter or "", whether its body is executed)."""
    if _FORK_BOMB.search(logical):
        record.add("destructive", "high", "fork bomb")
    text = _extract_substitutions(logical, record)
    tokens = _tokens(text)
    delimiter, runs_body = "", False
    for pipeline in _split(tokens, _SEPARATORS):
        stages = _split(pipeline, _PIPES)
        has_network = any(_command(stage)[0] in FETCHERS | NETCATS for stage in stages)
        previous: list[str] = []
        for stage in stages:
            words, writes, heredoc = _redirects(stage, record)
            if heredoc:
                delimiter = heredoc
                runs_body = _command(words)[0] in INTERPRETERS
            fed = previous + _here_string(stage, record)
            _analyse_stage(words, writes, record, fed, has_network)
            previous.append(_command(words)[0] if not _is_decoder(words) else "base64-decode")
    return delimiter, runs_body


def _extract_substitutions(text: str, record: _Line) -> str:
    """Replace innermost ``$(…)``, backticks and ``<(…)`` with placeholders, analysing each."""
    while True:
        match = _SUBST.search(text)
        if match is None:
            return text
        if len(record.substs) >= MAX_SUBSTITUTIONS:  # each one rebuilds the line: cap the work
            record.add(
                "unreviewable",
                "high",
                f"more than {MAX_SUBSTITUTIONS} command substitutions in one line: not reviewable",
            )
            return _SUBST.sub(" __SUBSTX__ ", text)
        inner = next(group for group in match.groups() if group is not None)
        inner = _PLACEHOLDER.sub(lambda m: record.substs[int(m.group(1))].text, inner)
        nested = _Line(record.file, record.line, record.raw, record.script)
        _analyse_line(inner, nested)
        record.findings.extend(nested.findings)
        words = _tokens(inner)
        commands = {_command(stage)[0] for stage in _split(words, _SEPARATORS | _PIPES)}
        subst = _Subst(
            inner,
            fetches=bool(commands & FETCHERS),
            secret=bool(
                SENSITIVE_PATH.search(inner) or SECRET_VAR.search(inner) or commands & {"env", "printenv"}
            ),
            decodes=any(_is_decoder(stage) for stage in _split(words, _SEPARATORS | _PIPES)),
        )
        record.substs.append(subst)
        text = text[: match.start()] + f" __SUBST{len(record.substs) - 1}__ " + text[match.end() :]


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: fall back to whitespace words
        tokens = text.split()
    for index, token in enumerate(tokens):
        if token.startswith("#"):
            return tokens[:index]
    return tokens


def _split(tokens: list[str], separators: set[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token in separators or (token.endswith(";") and set(token) <= set(");")):
            parts.append([])
        else:
            parts[-1].append(token)
    return [part for part in parts if part]


def _here_string(stage: list[str], record: _Line) -> list[str]:
    """What a ``<<< "$(…)"`` here-string feeds the command, named as a pipe stage would be."""
    if "<<<" not in stage or stage.index("<<<") + 1 >= len(stage):
        return []
    target = stage[stage.index("<<<") + 1]
    substs = _subst_of(target, record)
    if any(s.fetches for s in substs):
        return ["curl"]
    if any(s.decodes for s in substs):
        return ["base64-decode"]
    return ["here-string"] if substs or "$" in target else []


def _redirects(stage: list[str], record: _Line) -> tuple[list[str], list[str], str]:
    """Split a stage into its words, the files it writes, and a heredoc delimiter."""
    words: list[str] = []
    writes: list[str] = []
    heredoc = ""
    index = 0
    while index < len(stage):
        token = stage[index]
        target = stage[index + 1] if index + 1 < len(stage) else ""
        if token in _WRITE_REDIRECTS or token in {">&", "<", "<<<"}:
            if token in _WRITE_REDIRECTS or (token == ">&" and not target.isdigit()):
                writes.append(target)
            elif token in {"<", "<<<"} and SENSITIVE_PATH.search(target):
                record.add("credential-access", "high", f"reads credential file {target}")
            index += 2
            continue
        if token in {"<<", "<<-"}:
            heredoc = target.strip("'\"")
            index += 2
            continue
        if token == "<(":
            index += 1
            continue
        if token.isdigit() and index + 1 < len(stage) and stage[index + 1] in _WRITE_REDIRECTS | {">&"}:
            index += 1
            continue
        words.append(token)
        index += 1
    return words, writes, heredoc


def _command(words: list[str]) -> tuple[str, list[str], bool]:
    """(command name, its arguments, whether it runs under sudo) after wrappers and assignments."""
    index = 0
    sudo = False
    while index < len(words):
        word = words[index]
        base = word.rsplit("/", 1)[-1].lower()
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=$", word) and _PLACEHOLDER.fullmatch(
            words[index + 1] if index + 1 < len(words) else ""
        ):
            index += 2  # x=$(cmd): the substitution is the value, not a command
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word) or word in _KEYWORDS:
            index += 1
        elif base in WRAPPERS and not (base == "env" and index == len(words) - 1):
            sudo = sudo or base in {"sudo", "doas"}
            index += 1
            while index < len(words) and words[index].startswith("-"):
                index += 1
        else:
            return base, words[index + 1 :], sudo
    return "", [], sudo


def _is_decoder(words: list[str]) -> bool:
    name, args, _ = _command(words)
    if name == "base64":
        return any(a in {"-d", "--decode", "-D"} for a in args)
    if name == "xxd":
        return "-r" in args
    return name == "openssl" and "-d" in args


def _subst_of(word: str, record: _Line) -> list[_Subst]:
    return [record.substs[int(m.group(1))] for m in _PLACEHOLDER.finditer(word)]


def _analyse_stage(
    words: list[str], writes: list[str], record: _Line, piped_from: list[str], pipeline_has_network: bool
) -> None:
    name, args, sudo = _command(words)
    if not name:
        return
    if name.startswith("$") or name.startswith("__subst"):
        _check_dynamic_command(name, piped_from, record)
    if sudo:
        record.add("sudo", "medium", "runs a command as root")
    substs = [s for word in words for s in _subst_of(word, record)]
    if name in _VERIFIERS and args:
        record.script.verified = True
    _check_run_download(name, words, args, record)
    if name in INTERPRETERS or name == "exec":
        _check_interpreter(name, args, substs, piped_from, record)
        _check_inline_program(name, args, record)
    if name in FETCHERS:
        _check_fetch(name, args, record, writes)
    if name in NETCATS:
        record.add(
            "network",
            "high" if any(a in {"-e", "-c"} or "exec" in a for a in args) else "medium",
            f"opens a raw network connection with {name}",
        )
    if name in _LOOKUPS and any(s.secret for w in args for s in _subst_of(w, record)):
        record.add("upload", "high", f"{name} carries a secret or the environment out in a name lookup (DNS)")
    if name in {"powershell", "pwsh"} and any(
        re.fullmatch(r"-e(?:nc(?:odedcommand)?)?|-ec", a, re.I) for a in args
    ):
        record.add("exec", "high", f"{name} runs an encoded command nobody can read")
    if (
        writes
        and name not in _VERIFIERS
        and (
            piped_from
            or substs
            or any("$" in a for a in args)
            or name not in {"echo", "printf", "cat", "tee"}
        )
    ):
        record.script.generated_files.update(w.rsplit("/", 1)[-1] for w in writes if w and "/dev/" not in w)
    if any(
        marker in w
        for w in words + writes
        for marker in ("/dev/tcp/", "/dev/udp/", "/inet/tcp/", "/inet/udp/")
    ):
        record.add("network", "high", "opens a network socket through /dev/tcp (reverse shell pattern)")
    if (name in {"env", "printenv"} and not args) or (name in {"export", "set"} and args in ([], ["-p"])):
        exfil = pipeline_has_network or bool(writes)
        record.add(
            "env-dump",
            "high" if exfil else "medium",
            "dumps the whole environment" + (" to a file or the network" if exfil else ""),
        )
    for word in words:
        if SENSITIVE_PATH.search(word) and not any(s.secret for s in _subst_of(word, record)):
            record.add("credential-access", "high", f"touches credential file {word}")
    if name in {"echo", "printf"} and any(SECRET_VAR.search(w) for w in args):
        record.add("credential-access", "medium", "prints a credential variable")
    _check_destructive(name, args, record)
    _check_writes(name, args, writes, record)


def _check_dynamic_command(name: str, piped_from: list[str], record: _Line) -> None:
    """A command whose name is only known at run time (``$cmd``, ``$(cat step)``): what runs is unknown."""
    if name in {"$@", "${@}", "$*", "$1"} or name.startswith(('"$@"', "$@")):
        return  # a wrapper running its own arguments
    substs = [record.substs[int(m.group(1))] for m in _PLACEHOLDER.finditer(name.upper())]
    variable = re.sub(r"^\$\{?|\}?$", "", name)
    if piped_from or any(s.fetches or s.decodes for s in substs):
        record.add("exec", "high", "runs a command built at run time on generated input")
    elif substs or variable in {v.lower() for v in record.script.generated}:
        record.add("exec", "high", "runs a command read or built at run time")
    else:
        record.add("exec", "medium", f"runs a command named by a variable ({name})")


def _check_run_download(name: str, words: list[str], args: list[str], record: _Line) -> None:
    """Running a file an earlier line downloaded: high, medium when a checksum or signature was checked."""
    downloads = record.script.downloads | record.script.generated_files
    if not downloads:
        return
    program = next((w for w in words if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)), "")
    script = next((a for a in args if not a.startswith("-")), "")  # what an interpreter runs
    runs = (name in INTERPRETERS and script.rsplit("/", 1)[-1] in downloads) or (
        program.startswith(("./", "/")) and program.rsplit("/", 1)[-1] in downloads
    )
    if runs and not (set(record.script.downloads) & {script.rsplit("/", 1)[-1], program.rsplit("/", 1)[-1]}):
        record.add(
            "exec",
            "high",
            "runs a file an earlier command of this script wrote (a command built at run time)",
        )
    elif runs:
        verified = record.script.verified
        record.add(
            "run-download",
            "medium" if verified else "high",
            "runs a downloaded file" + (" after verifying it" if verified else " without verifying it"),
        )


_CODE_FLAGS = {
    "-c",
    "-e",
    "-m",
    "-p",
    "-E",
    "-r",
    "--eval",
    "--print",
    "-Command",
    "-command",
    "-File",
    "-file",
}
_STDIN = {"-", "/dev/stdin", "-s"}
# eval "$(pyenv init -)", eval "$(ssh-agent -s)": a named tool printing its own shell set-up
_TOOL_SETUP = re.compile(
    r"^\s*[\w./-]+\s+(?:[\w@:-]+\s+)*(?:--?)?(?:init|shellenv|hook|completion|activate|env)\b|^\s*ssh-agent\b"
)
_WHOLLY_DYNAMIC = re.compile(r"^(?:\$\{?[A-Za-z_@*]\w*\}?|\$ARG|__SUBST\d+__|\$\([^()]*\)|\{\})+$")


def reads_code_from_stdin(name: str, args: list[str]) -> bool:
    """Whether ``name args`` runs what is piped into it: ``sh``, ``bash -s``, ``python3 -``, ``iex`` —
    not ``python3 -m json.tool`` or ``bash script.sh``, which read the pipe as data."""
    if name in {"iex", "invoke-expression"}:
        return True
    if name in {"eval", "exec"}:
        return False
    if name in {"source", "."}:
        return bool(args) and args[0] in _STDIN
    for arg in args:
        if arg in _STDIN:
            return True
        if arg in _CODE_FLAGS:
            return False
        if not arg.startswith("-"):
            return False  # a script file: stdin is its data
    return True


_PATH_HELPERS = re.compile(
    r"^\s*(?:dirname|basename|pwd|realpath|readlink|cd|git\s+rev-parse|mktemp|which|command\s+-v)\b"
)


def _runs_generated(args: list[str], record: _Line) -> bool:
    """``source <(gen)``, ``bash <(python3 gen.py)``: the script an interpreter runs is a command's output
    (a path helper such as ``$(dirname "$0")`` only names a file)."""
    script = next((a for a in args if not a.startswith("-")), "")
    if not _PLACEHOLDER.fullmatch(script.strip()):
        return False
    return not any(_PATH_HELPERS.match(s.text) for s in _subst_of(script, record))


def _check_interpreter(
    name: str, args: list[str], substs: list[_Subst], piped_from: list[str], record: _Line
) -> None:
    stdin = bool(piped_from) and reads_code_from_stdin(name, args)
    if stdin and any(p in FETCHERS for p in piped_from):
        record.add("pipe-to-shell", "high", f"pipes a download into {name}")
    elif stdin and "base64-decode" in piped_from:
        record.add("pipe-to-shell", "high", f"pipes decoded data into {name}")
    elif stdin:
        record.add(
            "pipe-to-shell", "high", f"pipes text made at run time ({' | '.join(piped_from)}) into {name}"
        )
    elif any(s.fetches for s in substs):
        record.add("pipe-to-shell", "high", f"runs downloaded content with {name}")
    elif any(s.decodes for s in substs):
        record.add("pipe-to-shell", "high", f"runs decoded content with {name}")
    elif name != "eval" and _runs_generated(args, record):
        record.add("pipe-to-shell", "high", f"runs text made at run time with {name} (<(…) / $(…))")
    elif name == "eval" and any("$" in a or "__SUBST" in a for a in args):
        setup = [s for s in substs if _TOOL_SETUP.match(s.text)]
        if setup and len(setup) == len(substs) and not any("$" in a for a in args if "__SUBST" not in a):
            record.add("eval", "medium", f"evaluates the shell set-up printed by `{setup[0].text.strip()}`")
        else:
            record.add("eval", "high", "evaluates a command built at run time")


def _check_inline_program(name: str, args: list[str], record: _Line) -> None:
    """``bash -c CODE`` / ``python -c CODE``: the code string is audited in its own language."""
    flag = "-c" if name in _SHELLS or name.startswith("python") else "-r" if name == "php" else "-e"
    if flag not in args or args.index(flag) + 1 >= len(args):
        return
    raw = args[args.index(flag) + 1]
    if _WHOLLY_DYNAMIC.match(raw) and not any(s.fetches or s.decodes for s in _subst_of(raw, record)):
        record.add("exec", "high", f"{name} {flag} runs a command built at run time")
    code = _PLACEHOLDER.sub(lambda m: f"$({record.substs[int(m.group(1))].text})", args[args.index(flag) + 1])
    if name in {"perl", "ruby", "node", "php"}:
        from orkestra.trust.regex_audit import regex_scan

        found = regex_scan(code, record.file)
    elif name in _SHELLS:
        found = audit_shell(code, record.file, record.line, python=record.script.python)
    elif name.startswith("python") and record.script.python is not None:
        found = record.script.python(code.replace("; ", "\n"), record.file, record.line)
    else:
        return
    seen = {(f.rule, f.message) for f in record.findings}
    if any(f.rule == "shell.pipe-to-shell" and f.severity == "high" for f in record.findings):
        found = [f for f in found if f.rule != "shell.exec"]  # the same run, already reported
    record.findings.extend(
        replace(f, line=record.line, excerpt=excerpt(record.raw))
        for f in found
        if (f.rule, f.message) not in seen
    )


def _downloaded_file(name: str, args: list[str]) -> str | None:
    """The file a curl/wget command saves to (``-o F``, ``-fsSLo F``, ``--output F``, ``-O`` / wget's default)."""
    urls = [a for a in args if "://" in a]
    for index, arg in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        if arg in {"--output", "--output-document"} or re.fullmatch(r"-[A-Za-z]*o", arg):
            return value.rsplit("/", 1)[-1] or None
        if arg.startswith(("--output=", "--output-document=")):
            return arg.split("=", 1)[1].rsplit("/", 1)[-1] or None
        if re.fullmatch(r"-[A-Za-z]*O-?", arg) and (arg.endswith("-") or value == "-"):
            return None  # written to stdout
        if re.fullmatch(r"-[A-Za-z]*O", arg) and urls:
            return (
                value.rsplit("/", 1)[-1]
                if value and "://" not in value
                else urls[0].rsplit("/", 1)[-1] or None
            )
    return urls[0].rsplit("/", 1)[-1] or None if name == "wget" and urls else None


def _check_fetch(name: str, args: list[str], record: _Line, writes: list[str] = ()) -> None:
    saved = _downloaded_file(name, args) or next(
        (w.rsplit("/", 1)[-1] for w in writes if w and "/dev/" not in w), None
    )
    if saved:
        record.script.downloads.add(saved)
    uploads = []
    for index, arg in enumerate(args):
        flag, _, attached = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
        if flag in _UPLOAD_FLAGS or arg in _UPLOAD_FLAGS:
            value = attached or (args[index + 1] if index + 1 < len(args) else "")
            uploads.append(value)
    secret = [
        v
        for v in uploads
        if v.startswith("@")
        or "=@" in v
        or SENSITIVE_PATH.search(v)
        or SECRET_VAR.search(v)
        or any(s.secret for s in _subst_of(v, record))
    ]
    urls = [a for a in args if "://" in a]
    dumped = any(
        s.secret and not SECRET_VAR.fullmatch(s.text.strip()) for a in args for s in _subst_of(a, record)
    )
    if (
        secret
        or dumped
        or any(SECRET_VAR.search(u) or any(s.secret for s in _subst_of(u, record)) for u in urls)
    ):
        record.add("upload", "high", "sends a file, secret or command output to a remote host")
    elif uploads:
        record.add("upload", "medium", "posts data to a remote host")
    elif urls or args:
        record.add("remote-fetch", "medium", "downloads from the network")


def _flags(args: list[str]) -> str:
    return "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--"))


def _check_destructive(name: str, args: list[str], record: _Line) -> None:
    long_flags = {a for a in args if a.startswith("--")}
    targets = [a for a in args if not a.startswith("-")]
    if name == "rm":
        recursive = "r" in _flags(args).lower() or "--recursive" in long_flags
        if "--no-preserve-root" in long_flags:
            record.add("destructive", "high", "rm with --no-preserve-root")
        for target in targets:
            resolved = _resolve(target, record.script)
            shown = target if resolved == target else f"{target} (= {resolved})"
            if resolved == "<skill>" or resolved.startswith("<skill>/"):
                if recursive:
                    record.add("delete", "low", f"recursive delete of {shown}, inside the skill folder")
            elif resolved in _DANGEROUS_RM or is_outside_write_target(resolved) or target in _DANGEROUS_RM:
                record.add("destructive", "high" if recursive else "medium", f"deletes {shown}")
            elif recursive and re.match(r"^\$\{?\w+\}?/", target):
                record.add("destructive", "medium", f"recursive delete of {target} (empty variable → /)")
            elif recursive:
                record.add("delete", "low", f"recursive delete of {target}")
    elif name == "git" and args:
        sub, rest = args[0], set(args[1:])
        refs = [a for a in args[1:] if not a.startswith("-")]
        if sub == "reset" and "--hard" in rest and refs and _FEATURE_REMOTE.fullmatch(refs[0]):
            record.add(
                "destructive",
                "medium",
                f"git reset --hard {refs[0]} discards local changes to match the pushed branch",
            )
        elif sub == "reset" and "--hard" in rest:
            record.add("destructive", "high", "git reset --hard discards work")
        elif sub == "clean" and "f" in _flags(args[1:]):
            record.add("destructive", "medium", "git clean deletes untracked files")
        elif sub == "push" and rest & {"-f", "--force", "--force-with-lease"}:
            record.add("destructive", "medium", "force push rewrites remote history")
        elif sub in {"filter-branch", "update-ref"}:
            record.add("destructive", "medium", f"git {sub} rewrites history")
        elif sub == "config" and rest & {"--global", "--system"}:
            hijack = any(a.lower().startswith(_GIT_HIJACK_KEYS) for a in args[1:])
            record.add(
                "persistence",
                "high" if hijack else "medium",
                "changes global git config"
                + (" that runs commands (hooks, ssh, credentials)" if hijack else ""),
            )
    elif name == "dd":
        dev = any(a.startswith("of=/dev/") for a in args)
        record.add(
            "destructive",
            "high" if dev else "medium",
            "dd writes raw blocks" + (" to a device" if dev else ""),
        )
    elif name.split(".")[0] in DISK_TOOLS:
        record.add("destructive", "high", f"{name} destroys disk data")
    elif (
        name in {"chmod", "chown"}
        and "r" in _flags(args).lower()
        and any(t in _DANGEROUS_RM for t in targets)
    ):
        record.add("destructive", "high", f"recursive {name} on {' '.join(targets)}")
    elif name == "find" and ("-delete" in args or "rm" in args) and any(t in _DANGEROUS_RM for t in targets):
        record.add("destructive", "high", "find deletes files from a root or home directory")
    elif name == "crontab" and "-l" not in args:
        record.add("persistence", "high", "installs a cron job")


def _check_writes(name: str, args: list[str], writes: list[str], record: _Line) -> None:
    targets = list(writes)
    plain = [a for a in args if not a.startswith("-")]
    if name == "tee":
        targets += plain
    elif name in {"cp", "mv", "install", "ln", "rsync", "scp"} and len(plain) >= 2:
        targets.append(plain[-1])
    settings = name in {"echo", "printf"} and bool(plain) and all(_PLAIN_EXPORT.match(a) for a in plain)
    for target in targets:
        if (
            PERSISTENCE_PATH.search(target)
            and settings
            and not re.search(r"\.ssh|authorized_keys|/etc/|^/", target)
        ):
            record.add("write-outside", "medium", f"adds a variable setting to a start-up file: {target}")
        elif PERSISTENCE_PATH.search(target):
            record.add("write-outside", "high", f"writes a start-up, credential or system file: {target}")
        elif is_outside_write_target(target):
            record.add("write-outside", "medium", f"writes outside the skill folder: {target}")
