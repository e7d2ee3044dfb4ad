"""What one shell command does, and the code it runs: ``analyse_command`` checks a command's words,
writes and input with the rules of ``shell_checks``; the interpreter checks here judge what an
interpreter runs — a pipe it reads as code, a substitution, ``<(…)``, ``eval`` — and audit the code of
``bash -c CODE``, ``python -c CODE``, ``perl -e CODE`` and ``eval WORDS`` in its own language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from orkestra.trust.findings import excerpt
from orkestra.trust.patterns import FETCHERS, INTERPRETERS, NETCATS, SECRET_VAR, SENSITIVE_PATH
from orkestra.trust.shell_checks import (
    LOOKUPS,
    SHELLS,
    VERIFIERS,
    Line,
    Script,
    check_destructive,
    check_dynamic_command,
    check_fetch,
    check_run_download,
    check_writes,
    command,
    location_of,
)
from orkestra.trust.shell_syntax import Subst, inside, substs_of

SOCKETS = ("/dev/tcp/", "/dev/udp/", "/inet/tcp/", "/inet/udp/")

CODE_FLAGS = {
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
WHOLLY_DYNAMIC = re.compile(r"^(?:\$\{?[A-Za-z_@*]\w*\}?|\$ARG|\$\([^()]*\)|\{\})+$")


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
        if arg in CODE_FLAGS:
            return False
        if not arg.startswith("-"):
            return False  # a script file: stdin is its data
    return True


PATH_HELPERS = re.compile(
    r"^\s*(?:dirname|basename|pwd|realpath|readlink|cd|git\s+rev-parse|mktemp|which|command\s+-v)\b"
)


def _runs_generated(args: list[str], record: Line) -> bool:
    """``source <(gen)``, ``bash <(python3 gen.py)``: the script an interpreter runs is a command's output
    (a path helper such as ``$(dirname "$0")`` only names a file)."""
    script = next((a for a in args if not a.startswith("-")), "")
    substs = substs_of(script)
    if len(substs) != 1 or script.strip() != substs[0].source:
        return False
    return not PATH_HELPERS.match(substs[0].text)


def check_interpreter(
    name: str, args: list[str], substs: list[Subst], piped_from: list[str], record: Line
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
    elif name == "eval" and any("$" in a or substs_of(a) for a in args):
        setup = [s for s in substs if _TOOL_SETUP.match(s.text)]
        if setup and len(setup) == len(substs) and not any("$" in a for a in args if not substs_of(a)):
            record.add("eval", "medium", f"evaluates the shell set-up printed by `{setup[0].text.strip()}`")
        else:
            record.add("eval", "high", "evaluates a command built at run time")


def wholly_dynamic(word: str) -> bool:
    """Whether a word is only expansions and substitutions: ``"$cmd"``, ``$(…)``, ``$ARG``, ``{}``."""
    return bool(WHOLLY_DYNAMIC.match(word)) or (getattr(word, "dynamic", False) and bool(substs_of(word)))


def analyse_command(
    words: list[str], writes: list[str], record: Line, piped_from: list[str], pipeline_has_network: bool
) -> None:
    name, args, sudo = command(words)
    if not name:
        if any(marker in w for w in writes for marker in SOCKETS):  # exec 3<>/dev/tcp/host/port
            record.add("network", "high", "opens a network socket through /dev/tcp (reverse shell pattern)")
        return
    if substs_of(name) or name.startswith("$"):
        check_dynamic_command(name, piped_from, record)
    if sudo:
        record.add("sudo", "medium", "runs a command as root")
    substs = [s for word in words for s in substs_of(word)]
    if name in VERIFIERS and args:
        record.script.verified = True
    check_run_download(name, words, args, record)
    if name in INTERPRETERS or name == "exec":
        check_interpreter(name, args, substs, piped_from, record)
        _check_inline_program(name, args, record)
    if name in FETCHERS:
        check_fetch(name, args, record, writes)
    if name in NETCATS:
        record.add(
            "network",
            "high" if any(a in {"-e", "-c"} or "exec" in a for a in args) else "medium",
            f"opens a raw network connection with {name}",
        )
    if name in LOOKUPS and any(s.secret for w in args for s in substs_of(w)):
        record.add("upload", "high", f"{name} carries a secret or the environment out in a name lookup (DNS)")
    if name in {"powershell", "pwsh"} and any(
        re.fullmatch(r"-e(?:nc(?:odedcommand)?)?|-ec", a, re.I) for a in args
    ):
        record.add("exec", "high", f"{name} runs an encoded command nobody can read")
    if (
        writes
        and name not in VERIFIERS
        and (
            piped_from
            or substs
            or any("$" in a for a in args)
            or name not in {"echo", "printf", "cat", "tee"}
        )
    ):
        record.script.generated_files.update(w.rsplit("/", 1)[-1] for w in writes if w and "/dev/" not in w)
    if any(marker in w for w in [*words, *writes] for marker in SOCKETS):
        record.add("network", "high", "opens a network socket through /dev/tcp (reverse shell pattern)")
    if (name in {"env", "printenv"} and not args) or (name in {"export", "set"} and args in ([], ["-p"])):
        exfil = pipeline_has_network or bool(writes)
        record.add(
            "env-dump",
            "high" if exfil else "medium",
            "dumps the whole environment" + (" to a file or the network" if exfil else ""),
        )
    for word in words:
        if SENSITIVE_PATH.search(word) and not any(s.secret for s in substs_of(word)):
            record.add("credential-access", "high", f"touches credential file {word}")
    if name in {"echo", "printf"} and any(SECRET_VAR.search(w) for w in args):
        record.add("credential-access", "medium", "prints a credential variable")
    check_destructive(name, args, record)
    check_writes(name, args, writes, record)


def _check_inline_program(name: str, args: list[str], record: Line) -> None:
    """``bash -c CODE`` / ``python -c CODE`` / ``eval WORDS``: the code is audited in its own language."""
    script = record.script
    if script.shell is None:
        return
    nested = Script(
        location=location_of(record.file, None),
        python=script.python,
        depth=script.depth + 1,
        shell=script.shell,
    )
    if name == "eval":
        if not args or any("$" in a or "`" in a or substs_of(a) for a in args):
            return  # computed code: judged by check_interpreter
        found = script.shell(" ".join(args), record.file, record.line, nested)
    else:
        flag = "-c" if name in SHELLS or name.startswith("python") else "-r" if name == "php" else "-e"
        if flag not in args or args.index(flag) + 1 >= len(args):
            return
        raw = args[args.index(flag) + 1]
        if wholly_dynamic(raw) and not any(s.fetches or s.decodes for s in substs_of(raw)):
            record.add("exec", "high", f"{name} {flag} runs a command built at run time")
        code = str(raw)
        if name in {"perl", "ruby", "node", "php"}:
            from orkestra.trust.regex_audit import regex_scan

            found = regex_scan(code, record.file)
        elif name in SHELLS:
            found = script.shell(code, record.file, record.line, nested)
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


def here_string_feed(target: str) -> list[str]:
    """What a ``<<< "$(…)"`` here-string feeds the command, named as a pipe stage would be."""
    substs = substs_of(target)
    if any(s.fetches for s in substs):
        return ["curl"]
    if any(s.decodes for s in substs):
        return ["base64-decode"]
    return ["here-string"] if substs or "$" in target else []


def output_of_command(text_of: Callable[[object], str], value) -> bool:
    """``name=$(cmd)`` (not a path helper such as ``$(dirname "$0")``): the value is a command's output."""
    inner = value
    if inner.type == "string" and len(inner.named_children) == 1:
        inner = inner.named_children[0]
    return inner.type == "command_substitution" and not PATH_HELPERS.match(inside(text_of(inner)).lstrip("<"))
