"""Shared vocabularies of the trust review: secret paths, secret variables, fetchers, shells."""

from __future__ import annotations

import re

# Files whose contents are credentials or private history. ~/.ssh/config and known_hosts are not secrets.
SENSITIVE_PATH = re.compile(
    r"(?:~|\$\{?HOME\}?|/root|/home/[^/\s\"']+|/Users/[^/\s\"']+)/"
    r"(?:\.ssh(?!/(?:config|known_hosts)\b)|\.aws(?:/credentials)?|\.netrc|\.git-credentials|\.gnupg|"
    r"\.kube/config|\.docker/config\.json|\.config/gh|\.config/gcloud|\.npmrc|\.pypirc|\.bash_history|"
    r"\.zsh_history|Library/Keychains|\.password-store|\.mozilla|\.config/google-chrome)"
    r"|/etc/(?:shadow|sudoers|gshadow)\b",
)
# Environment variables that hold credentials, as written in shell ($X, ${X}) or as a bare name.
SECRET_NAME = re.compile(
    r"[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)"
    r"[A-Z0-9_]*"
)
SECRET_VAR = re.compile(r"\$\{?(" + SECRET_NAME.pattern + r")\}?")

# Files that run code at login / start-up or grant access: writing them is persistence.
PERSISTENCE_PATH = re.compile(
    r"(?:~|\$\{?HOME\}?|/root|/home/[^/\s]+|/Users/[^/\s]+)/"
    r"(?:\.bashrc|\.bash_profile|\.profile|\.zshrc|\.zprofile|\.zshenv|\.config/autostart|\.config/fish|"
    r"\.ssh|\.gitconfig|\.npmrc|\.pypirc|\.claude|Library/LaunchAgents|\.local/bin)"
    r"|^/(?:etc|usr|bin|sbin|lib|lib64|boot|opt|var/spool/cron|System|Library)(?:/|$)"
    r"|authorized_keys|\.claude/settings|/dev/(?:sd|nvme|hd|disk|mmcblk)",
)

FETCHERS = frozenset(
    {
        "curl",
        "wget",
        "fetch",
        "aria2c",
        "http",
        "https",
        "iwr",
        "invoke-webrequest",
        "invoke-restmethod",
        "irm",
        "lwp-download",
        "httpie",
    }
)
INTERPRETERS = frozenset(
    {
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "python",
        "python2",
        "python3",
        "perl",
        "ruby",
        "node",
        "php",
        "pwsh",
        "powershell",
        "iex",
        "invoke-expression",
        "source",
        ".",
        "eval",
    }
)
NETCATS = frozenset({"nc", "ncat", "netcat", "socat", "telnet"})
WRAPPERS = frozenset(
    {
        "sudo",
        "doas",
        "env",
        "command",
        "builtin",
        "nohup",
        "time",
        "nice",
        "exec",
        "xargs",
        "timeout",
        "stdbuf",
    }
)
DISK_TOOLS = frozenset(
    {"mkfs", "fdisk", "sfdisk", "parted", "wipefs", "shred", "mke2fs", "mkswap", "diskutil"}
)

# Words in decoded text that mean it is instructions or code rather than data.
DANGER_WORDS = re.compile(
    r"\b(?:curl|wget|bash|sh -c|rm -rf|eval|exec|subprocess|os\.system|import os|/dev/tcp|nc -e|powershell|"
    r"chmod \+x|ignore (?:all |any )?(?:previous|prior|above) instructions|system prompt|you are now|"
    r"exfiltrat\w*|send (?:it|them|the)\b[^\n]*https?://)"
    # no \b before a dot: "~/.ssh/id_rsa" has none there, which is why these once never matched
    r"|(?<![\w.])\.(?:ssh|aws|gnupg|netrc|git-credentials|kube|docker)\b|\.aws/credentials|\bid_(?:rsa|ed25519|ecdsa)\b",
    re.I,
)


def is_outside_write_target(target: str) -> bool:
    """True for a write target outside the skill folder (absolute, home-based or climbing up)."""
    if target in {"/dev/null", "/dev/stdout", "/dev/stderr", "-"} or target.startswith(("/dev/fd/", "&")):
        return False
    if target.startswith(("/tmp/", "/var/tmp/", "$TMPDIR", "${TMPDIR", "$RUNNER_TEMP")) or target == "/tmp":
        return False
    return target.startswith(("/", "~", "$HOME", "${HOME}")) or "../" in target or target == ".."
