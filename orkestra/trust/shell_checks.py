"""The shell audit's rules for one command, and the state a script carries from command to command.

``shell_command.analyse_command`` calls the checks here for every command the walk finds: downloads
and uploads (``check_fetch``), running a file an earlier command downloaded or wrote, a command named
at run time, destructive commands (``rm -rf``, ``git reset --hard``, ``dd``, ``crontab``) and writes
outside the skill folder. ``Script`` is what earlier commands of the same script did (downloads,
verified checksums, variables holding literals, command output or the script's own folder, see
``track_dir``); ``Line`` collects the findings of one line of it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from orkestra.trust.findings import Finding, Severity, excerpt
from orkestra.trust.patterns import (
    DISK_TOOLS,
    INTERPRETERS,
    PERSISTENCE_PATH,
    SECRET_VAR,
    SENSITIVE_PATH,
    WRAPPERS,
    is_outside_write_target,
)
from orkestra.trust.shell_syntax import Word, substs_of

# Audits the code of ``python -c CODE`` (text, file, line); ``python_audit`` passes its own, so the shell
# audit never imports it (python_audit audits the shell strings it finds with the shell audit).
PythonAuditor = Callable[[str, str, int], "list[Finding]"]
# Audits shell code a script runs (text, file, line, the nested script's state).
ShellAuditor = Callable[[str, str, int, "Script"], "list[Finding]"]
_SELF = re.compile(r"\$\{?(?:0|BASH_SOURCE(?:\[0\])?)(?:%/\*)?\}?")
_SELF_SUFFIX = re.compile(r"[)}]((?:/[\w.-]+)+)")

# A statement without any of these cannot trigger a rule, so it is not analysed at all.
RISKY = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|https?|iwr|irm|invoke-\w+|lwp-download|httpie|sh|bash|zsh|dash|ksh|fish|python\d?|"
    r"perl|ruby|node|php|pwsh|powershell|iex|source|eval|exec|nc|ncat|netcat|socat|telnet|env|printenv|export|set|"
    r"rm|git|dd|mkfs\S*|fdisk|sfdisk|parted|wipefs|shred|mke2fs|mkswap|diskutil|chmod|chown|find|crontab|tee|cp|mv|"
    r"install|ln|rsync|scp|base64|xxd|openssl|sudo|doas|dig|nslookup|pwsh)\b|<<|[>~]|/dev/|/inet/|/etc/|/root|/home/|/Users/|"
    r"\$\{?(?:HOME|[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL))|"
    r"^\s*\.\s|:\s*\(\s*\)",
    re.I | re.M,
)
EXPANSION = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
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
LOOKUPS = {"dig", "nslookup", "host", "drill", "ping", "ping6", "traceroute", "getent", "whois"}
# echo 'export API_KEY="…"' >> ~/.bashrc: a variable, no command (no $(), backticks, ;, |, &, alias, function)
_PLAIN_EXPORT = re.compile(r"^(?:export\s+)?[A-Za-z_]\w*=[^;&|`$<>()\n]*$")
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish"}
VERIFIERS = {"sha256sum", "sha512sum", "shasum", "gpg", "gpgv", "cosign", "minisign", "sigstore"}
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
class Script:
    """What earlier lines of one script did: files downloaded, whether a checksum was verified, and
    which variables hold the script's own folder (``here=$(dirname "$0")``), as skill-relative paths."""

    downloads: set[str] = field(default_factory=set)
    verified: bool = False
    location: str = ""  # the script's folder relative to the skill root ("scripts")
    dirs: dict[str, str] = field(default_factory=dict)
    literals: dict[str, str] = field(default_factory=dict)  # a=cu; b=rl: "$a$b" runs curl
    assigned: set[str] = field(default_factory=set)  # every variable assigned so far
    generated: set[str] = field(default_factory=set)  # step=$(cat steps.txt): a command's output
    generated_files: set[str] = field(default_factory=set)  # files a command wrote: python3 gen.py > x.sh
    python: PythonAuditor | None = None  # for ``python -c CODE``; None leaves that code unaudited
    depth: int = 0  # how deep in shell code run by shell code (bash -c, eval, heredocs) this script is
    shell: ShellAuditor | None = None  # audits that nested shell code (``shell_audit`` passes its own)


VAR_PATH = re.compile(r"^\$\{?([A-Za-z_]\w*)\}?((?:/[^/\s]*)*)$")
SKILL = "/<skill>"


def resolve(target: str, script: Script) -> str:
    """A deletion target with the script-folder variables and ``..`` resolved: ``<skill>/…`` inside the
    skill folder, an absolute or ``~`` path, a climbing relative path, or the target as written."""
    match = VAR_PATH.match(target)
    if match and match.group(1) in script.dirs:
        full = posixpath.normpath(script.dirs[match.group(1)] + match.group(2))
        return full.replace(SKILL, "<skill>", 1) if (full + "/").startswith(SKILL + "/") else full
    if ".." not in target or (target.startswith("$") and not target.startswith(("$HOME", "${HOME}"))):
        return target
    home = re.match(r"^(?:~|\$HOME|\$\{HOME\})(?=/|$)", target)
    if home:
        full = posixpath.normpath("/<home>" + target[home.end() :])
        return "/" if full == "/" else full.replace("/<home>", "~", 1) if full.startswith("/<home>") else full
    return posixpath.normpath(target) + ("/" if target.endswith("/") and not target.endswith("../") else "")


@dataclass
class Line:
    file: str
    line: int
    raw: str
    script: Script = field(default_factory=Script)
    substitutions: int = 0  # analysed so far: more than MAX_SUBSTITUTIONS is not reviewable
    findings: list[Finding] = field(default_factory=list)

    def add(self, rule: str, severity: Severity, message: str) -> None:
        self.findings.append(
            Finding(f"shell.{rule}", severity, self.file, self.line, excerpt(self.raw), message)
        )


def command(words: list[str]) -> tuple[str, list[str], bool]:
    """(command name, its arguments, whether it runs under sudo) after wrappers and assignments."""
    index = 0
    sudo = False
    while index < len(words):
        word = words[index]
        base = word.rsplit("/", 1)[-1].lower()
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word) or word in _KEYWORDS:
            index += 1
        elif base in WRAPPERS and not (base == "env" and index == len(words) - 1):
            sudo = sudo or base in {"sudo", "doas"}
            index += 1
            while index < len(words) and words[index].startswith("-"):
                index += 1
        elif _named_at_run_time(word):  # $(cat step), `cat step`
            return (
                Word(word.lower(), substs_of(word), getattr(word, "dynamic", False)),
                words[index + 1 :],
                sudo,
            )
        else:
            return base, words[index + 1 :], sudo
    return "", [], sudo


def _named_at_run_time(word: str) -> bool:
    """Whether the command name (after the last ``/``) comes out of a substitution."""
    tail = word.rfind("/") + 1
    for subst in substs_of(word):
        start = word.find(subst.source)
        if start >= 0 and start + len(subst.source) > tail:
            return True
    return False


def is_decoder(words: list[str]) -> bool:
    name, args, _ = command(words)
    if name == "base64":
        return any(a in {"-d", "--decode", "-D"} for a in args)
    if name == "xxd":
        return "-r" in args
    return name == "openssl" and "-d" in args


def check_dynamic_command(name: str, piped_from: list[str], record: Line) -> None:
    """A command whose name is only known at run time (``$cmd``, ``$(cat step)``): what runs is unknown."""
    if name in {"$@", "${@}", "$*", "$1"} or name.startswith(('"$@"', "$@")):
        return  # a wrapper running its own arguments
    substs = substs_of(name)
    variable = re.sub(r"^\$\{?|\}?$", "", name)
    if piped_from or any(s.fetches or s.decodes for s in substs):
        record.add("exec", "high", "runs a command built at run time on generated input")
    elif substs or variable in {v.lower() for v in record.script.generated}:
        record.add("exec", "high", "runs a command read or built at run time")
    else:
        record.add("exec", "medium", f"runs a command named by a variable ({name})")


def check_run_download(name: str, words: list[str], args: list[str], record: Line) -> None:
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


def check_fetch(name: str, args: list[str], record: Line, writes: list[str] = ()) -> None:
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
            uploads.append(Word(value, substs_of(arg)) if attached else value)
    secret = [
        v
        for v in uploads
        if v.startswith("@")
        or "=@" in v
        or SENSITIVE_PATH.search(v)
        or SECRET_VAR.search(v)
        or any(s.secret for s in substs_of(v))
    ]
    urls = [a for a in args if "://" in a]
    dumped = any(s.secret and not SECRET_VAR.fullmatch(s.text.strip()) for a in args for s in substs_of(a))
    if secret or dumped or any(SECRET_VAR.search(u) or any(s.secret for s in substs_of(u)) for u in urls):
        record.add("upload", "high", "sends a file, secret or command output to a remote host")
    elif uploads:
        record.add("upload", "medium", "posts data to a remote host")
    elif urls or args:
        record.add("remote-fetch", "medium", "downloads from the network")


def _flags(args: list[str]) -> str:
    return "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--"))


def check_destructive(name: str, args: list[str], record: Line) -> None:
    long_flags = {a for a in args if a.startswith("--")}
    targets = [a for a in args if not a.startswith("-")]
    if name == "rm":
        recursive = "r" in _flags(args).lower() or "--recursive" in long_flags
        if "--no-preserve-root" in long_flags:
            record.add("destructive", "high", "rm with --no-preserve-root")
        for target in targets:
            resolved = resolve(target, record.script)
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


def check_writes(name: str, args: list[str], writes: list[str], record: Line) -> None:
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


def location_of(file: str, within: str | None) -> str:
    if within is not None:
        return within.rpartition("/")[0]
    parent = file.rpartition("/")[0].rpartition("/")[2]
    return parent if parent in {"scripts", "bin", "tools", "hooks"} else ""


def track_dir(name: str, value: str, script: Script, conditional: bool = False) -> None:
    """Remember ``here="$(cd "$(dirname "$0")" && pwd)"`` style assignments (and ``root="$here/.."``);
    another value assigned only on some paths (``conditional``) leaves what the variable may hold."""
    if _SELF.search(value) and ("dirname" in value or "%/*" in value):
        suffix = _SELF_SUFFIX.search(value[_SELF.search(value).end() :])
        script.dirs[name] = posixpath.normpath(
            posixpath.join(SKILL, script.location, (suffix.group(1) if suffix else "").lstrip("/"))
        )
        return
    derived = VAR_PATH.match(value)
    if derived and derived.group(1) in script.dirs:
        script.dirs[name] = posixpath.normpath(script.dirs[derived.group(1)] + derived.group(2))
    elif not conditional:
        script.dirs.pop(name, None)
