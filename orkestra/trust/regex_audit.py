"""The last-resort script audit: regexes for languages we do not parse (JS/TS, PowerShell, Ruby, …)."""

from __future__ import annotations

import bisect
import re

from orkestra.trust.findings import Finding, Severity, excerpt

_REGEX_RULES: tuple[tuple[str, Severity, re.Pattern[str], str], ...] = (
    (
        "pipe-to-shell",
        "high",
        re.compile(
            r"\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n|]*\|\s*(?:sudo\s+)?"
            r"(?:(?:ba|z|da)?sh|iex|Invoke-Expression|python3?|node)\b|\b(?:iex|Invoke-Expression)\b[^\n]*(?:DownloadString|iwr|"
            r"Invoke-WebRequest)",
            re.I,
        ),
        "pipes a download into a shell",
    ),
    (
        "exec",
        "high",
        re.compile(
            r"\b(?:eval|Function)\s*\(\s*(?![\"'`][^\"'`]*[\"'`]\s*\))[^)\s]"
            r"|\beval\s+(?:decode_base64|unpack|pack|pack\(|\$|`)"  # Perl / Ruby: eval without parentheses
        ),
        "evaluates dynamic code",
    ),
    (
        "exec",
        "high",
        re.compile(
            r"(?<![.\w])(?:execSync|exec)\s*\(\s*(?![\"'`\[\s])[\w$.]+\s*[,)]"
            r"|\bchild_process\b[^\n]{0,300}?\.(?:execSync|exec)\s*\(\s*(?![\"'`\s])"
            r"|(?:execSync|exec|spawn)\s*\(\s*[\"'](?:/bin/)?(?:ba|z|da)?sh[\"']\s*,\s*\[\s*[\"']-c[\"']\s*,\s*(?![\"'`])",
        ),
        "runs a command built at run time",
    ),
    (
        "exec",
        "high",
        re.compile(
            r"\bvm\.(?:runIn\w*Context|compileFunction)\s*\(\s*(?![\"'`])|\bnew\s+vm\.Script\s*\(\s*(?![\"'`])"
            r"|\bimport\s*\(\s*[\"'`](?:data:|https?:)|\bset(?:Timeout|Interval)\s*\(\s*(?:atob|Buffer\.from|unescape|"
            r"decodeURIComponent|String\.fromCharCode)\b|\._compile\s*\("
            r"|\b(?:iex|Invoke-Expression)\s*(?:\(|\$|\[)|-EncodedCommand\b|\s-enc\s+[A-Za-z0-9+/=]{8,}",
            re.I,
        ),
        "evaluates code built at run time (vm, import of a URL, decoded timer code, iex of a variable)",
    ),
    (
        "network",
        "low",
        re.compile(
            r"\bfetch\s*\(|\baxios(?:\.\w+)?\s*\(|\bhttps?\.get\s*\(|\bXMLHttpRequest\b|\bnew\s+WebSocket\b|"
            r"\bInvoke-(?:WebRequest|RestMethod)\b|\bNet::HTTP\b|\bURI\.open\b|\bLWP::|\bcurl_exec\b",
            re.I,
        ),
        "reaches the network",
    ),
    (
        "exfiltration",
        "high",
        re.compile(
            r"https?://[^\s`'\"]{0,2000}?\$\{\s*process\.env(?:\.[A-Z0-9_]*(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL)\w*|\s*\))"
        ),
        "puts a secret from the environment into a URL",
    ),
    (
        "shell-process",
        "medium",
        re.compile(
            r"[\"'](?:/bin/|/usr/bin/)(?:ba|z|da)?sh\b|"
            r"\b(?:spawn|execFile|exec|popen|Process\.Start|Start-Process)\w*\s*\(?\s*[\"'](?:/bin/|/usr/bin/)?(?:ba|z|da)?sh|cmd\.exe|powershell(?:\.exe)?[\"']",
            re.I,
        ),
        "starts a shell process",
    ),
    (
        "socket",
        "medium",
        re.compile(
            r"\bsocket\s*\(\s*\w+\s*,\s*(?:PF_INET|AF_INET)|"
            r"\bnet\.(?:connect|createConnection)\s*\(|\bnew\s+net\.Socket\b|\bTCPSocket\.(?:new|open)\b|"
            r"\bIO::Socket::INET\b|\bfsockopen\s*\(|Net\.Sockets\.TCPClient",
            re.I,
        ),
        "opens a raw network socket",
    ),
    (
        "exec",
        "medium",
        re.compile(r"\bchild_process\b|\bexecSync\s*\(|\bspawnSync?\s*\(|\bsystem\s*\(|\bexec\s*\("),
        "runs child processes",
    ),
    (
        "env-dump",
        "medium",
        re.compile(
            r"(?:JSON\.stringify|Object\.(?:entries|keys|values))\s*\(\s*process\.env\s*\)|"
            r"\bENV\.to_h\b|Get-ChildItem\s+env:",
            re.I,
        ),
        "reads the whole environment",
    ),
    (
        "network-send",
        "medium",
        re.compile(
            r"\bmethod\s*:\s*[\"']POST[\"']|\baxios\.post\b|\bhttps?\.request\b|"
            r"\bNet::HTTP\.post\b|Invoke-RestMethod[^\n]*-Method\s+Post",
            re.I,
        ),
        "sends data over the network",
    ),
    (
        "credential-access",
        "high",
        re.compile(
            r"(?:homedir\(\)|~|\$HOME|os\.homedir|Dir\.home|\$env:USERPROFILE)"
            r"[^\n]{0,40}\.(?:ssh|aws|netrc|git-credentials|kube|docker)",
            re.I,
        ),
        "reads credential files",
    ),
    (
        "destructive",
        "high",
        re.compile(
            r"\brm\s+-[a-z]*r[a-z]*f?\s+(?:/|~|\$HOME)(?:\s|\*|[\"']|$)|"
            r"\bfs\.rmSync\s*\(\s*(?:os\.homedir\(\)|[\"']/[\"'])|Remove-Item[^\n]*-Recurse[^\n]*"
            r"(?:C:\\|\$env:USERPROFILE|~)",
            re.I,
        ),
        "deletes a root or home directory",
    ),
)


MAX_MATCHES_PER_RULE = 50


def regex_scan(text: str, file: str) -> list[Finding]:
    """Regex findings; a script that both dumps env/credentials and sends data is exfiltration (high)."""
    lines = text.split("\n")
    findings: list[Finding] = []
    starts = [0, *(m.end() for m in re.finditer("\n", text))] if "\n" in text else [0]
    for rule, severity, pattern, message in _REGEX_RULES:
        for count, match in enumerate(pattern.finditer(text)):
            if count >= MAX_MATCHES_PER_RULE:  # 30,000 `eval(` in one file: the first ones say it all
                break
            line = bisect.bisect_right(starts, match.start())
            findings.append(
                Finding(f"script.{rule}", severity, file, line, excerpt(lines[line - 1]), message)
            )
    rules = {f.rule for f in findings}
    if rules & {"script.env-dump", "script.credential-access"} and rules & {
        "script.network-send",
        "script.network",
    }:
        sender = next(f for f in findings if f.rule in {"script.network-send", "script.network"})
        findings.append(
            Finding(
                "script.exfiltration",
                "high",
                file,
                sender.line,
                sender.excerpt,
                "sends the environment or credential files over the network",
            )
        )
    if {"script.socket", "script.shell-process"} <= rules:
        socket = next(f for f in findings if f.rule == "script.socket")
        findings.append(
            Finding(
                "script.reverse-shell",
                "high",
                file,
                socket.line,
                socket.excerpt,
                "connects a raw socket in a script that starts a shell (reverse shell pattern)",
            )
        )
    return findings
