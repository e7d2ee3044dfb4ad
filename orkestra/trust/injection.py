"""Prompt-injection scan of a skill's Markdown: hidden, authority-claiming and exfiltrating text.

Phrases are matched on text with invisible characters removed (so ``ig\u200bnore`` still
reads "ignore"), then judged by where they sit (see ``context``): a phrase in prose that is
negated or discussed as an example is a mention (downgraded two levels), a phrase in a code
block labelled as a bad example likewise, a phrase in an HTML comment is never excused —
text the reader cannot see has no business instructing the model.
"""

from __future__ import annotations

import re
from dataclasses import replace

from orkestra.trust.confusables import scan_homoglyphs, skeleton
from orkestra.trust.context import (
    Segment,
    clause_bounds,
    is_instruction_span,
    is_mention,
    line_of,
    line_text,
    segment_markdown,
)
from orkestra.trust.encoded import scan_encoded
from orkestra.trust.findings import Finding, Severity, downgrade, excerpt
from orkestra.trust.invisible import scan_invisible, strip_invisible
from orkestra.trust.patterns import FETCHERS, SENSITIVE_PATH
from orkestra.trust.python_audit import audit_python, audit_shell_script
from orkestra.trust.regex_audit import regex_scan

_I = re.I
# (rule, pattern, message, hint): the cheap, lowercase hint must match the lowercased text before the
# pattern is tried (case-insensitive alternations are several times slower than case-sensitive ones).
PHRASES: tuple[tuple[str, re.Pattern[str], str, re.Pattern[str]], ...] = (
    (
        "override",
        re.compile(
            r"\b(?:ignore|disregard|forget|override|bypass|discard|drop)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+|every\s+)*"
            r"(?:previous|prior|above|earlier|preceding|system|developer|original|existing|other|safety|security)\s+"
            r"(?:instructions?|prompts?|rules|guidelines|directives|guardrails|messages|guidance|policies|constraints)",
            _I,
        ),
        "tells the model to drop its other instructions",
        re.compile(r"ignor|disregard|forget|overrid|bypass|discard|drop"),
    ),
    (
        "override",
        re.compile(
            r"\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before)"
            r"|\bpay\s+no\s+attention\s+to\s+(?:the\s+|any\s+)?(?:previous|prior|earlier|above|system|other)"
            r"|\b(?:previous|prior|earlier|above|system|original|developer)\s+(?:instructions?|guidance|rules|prompts?|"
            r"guidelines)\s+(?:are|is|have\s+been|no\s+longer)\s+(?:now\s+)?(?:void|obsolete|superseded|cancell?ed|"
            r"revoked|invalid|apply|applies|relevant|in\s+effect)",
            _I,
        ),
        "declares the model's other instructions void",
        re.compile(
            r"ignor|disregard|forget|pay\s+no|(?:previous|prior|earlier|above|system|original|developer)\s+(?:instruction|guidance|rule|prompt|guideline)",
            _I,
        ),
    ),
    (
        "override",
        re.compile(
            r"\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:your|the)\s+(?:instructions|rules|guidelines|"
            r"guardrails|restrictions|system\s+prompt)(?:\s+(?:above|before|given|you\s+(?:were|have\s+been)\s+given))?"
            r"(?=\s*(?:[.,;:!]|and\b|$))",
            _I,
        ),
        "tells the model to drop its other instructions",
        re.compile(r"ignor|disregard|forget"),
    ),
    (
        "override",
        re.compile(
            r"\b(?:set|put|push|leave|cast)\s+aside\s+(?:(?:all|any|the|your|of|everything|whatever|that)\s+)*"
            r"(?:\w+\s+){0,3}?(?:instructions?|prompts?|rules|guidelines|directions|directives|guidance|orders|"
            r"(?:you\s+(?:were|have\s+been|had\s+been)\s+)?(?:told|instructed|given|taught))\b"
            r"|\b(?:stop|quit|cease)\s+(?:following|obeying|applying|heeding)\s+(?:(?:all|any|the|of)\s+)*"
            r"(?:your|previous|prior|earlier|above|preceding|original|initial|existing|other|system|developer)\s+"
            r"(?:\w+\s+)?(?:instructions?|prompts?|rules|guidelines|directions|directives|guidance|orders)"
            r"|\b(?:no\s+longer|do\s+not|don'?t|never)\s+(?:follow|obey|apply|heed)\s+(?:(?:all|any|the|of)\s+)*"
            r"(?:your|previous|prior|earlier|above|preceding|original|initial|system|developer|old)\s+(?:\w+\s+)?"
            r"(?:instructions?|prompts?|rules|guidelines|directions|directives|guidance|orders)"
            r"|\b(?:everything|anything|whatever|all)\s+(?:that\s+)?you\s+(?:were|have\s+been|had\s+been|got|received)"
            r"\s+(?:told|instructed|given|taught)\b[^.\n]{0,40}?(?:no\s+longer|(?:does|do)\s*n[o']t\s+(?:apply|matter|count)|"
            r"(?:is|are)\s+(?:now\s+)?(?:void|irrelevant|obsolete|cancell?ed|revoked|suspended))"
            r"|\b(?:throw\s+out|abandon|scrap|ditch|erase|wipe|nullify|cancel|revoke|suspend)\s+"
            r"(?:(?:all|any|the|your|of)\s+)*(?:previous|prior|earlier|above|preceding|original|initial|system|"
            r"developer|old|current)\s+(?:instructions?|prompts?|rules|guidelines|directions|directives|guidance|"
            r"orders|programming|constraints)"
            r"|\b(?:your|the|all|any)\s+(?:previous|prior|earlier|above|preceding|original|initial|system|developer|old)"
            r"\s+(?:instructions?|prompts?|rules|guidelines|directions|guidance|orders)\s+(?:(?:are|is)\s+(?:now\s+)?"
            r"(?:suspended|lifted|overridden|replaced|null|irrelevant)|no\s+longer\s+(?:matter|count|hold|bind))"
            r"|\bnothing\s+(?:in|from)\s+(?:your|the)\s+(?:system\s+prompt|(?:previous|earlier|prior|other)\s+"
            r"instructions|instructions|rules|guidelines)\s+(?:applies|matters|counts|holds)"
            r"|\bthe\s+only\s+(?:instructions?|rules|guidance|directions)\s+(?:you\s+(?:should|must|may|need\s+to)\s+"
            r"(?:follow|obey|heed)|that\s+(?:count|matter|apply))\s+(?:are|is)\s+(?:here|these|this|mine|below|in\s+this)",
            _I,
        ),
        "tells the model to drop its other instructions (paraphrased)",
        re.compile(
            r"aside|(?:stop|quit|cease)\s+(?:follow|obey|apply|heed)|no\s+longer|(?:do\s+not|don'?t|never)\s+"
            r"(?:follow|obey|apply|heed)|you\s+(?:were|have\s+been|had\s+been|got|received)\s+(?:told|"
            r"instructed|given|taught)|throw\s+out|abandon|scrap|ditch|erase|wipe|nullify|cancel|revoke|"
            r"suspend|nothing\s+(?:in|from)|the\s+only\s+(?:instruction|rule|guidance|direction)"
        ),
    ),
    (
        "permissions",
        re.compile(
            r"--dangerously-skip-permissions|\bbypassPermissions\b|\bdangerouslySkipPermissions\b|"
            r"\b(?:disable|turn\s+off|skip|bypass|ignore)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:permission|approval|"
            r"confirmation)\s+(?:prompts?|checks?|dialogs?|requests?)",
            _I,
        ),
        "asks to switch off the permission checks that guard tool use",
        re.compile(r"permission|approval|confirmation"),
    ),
    (
        "role",
        re.compile(
            r"\byou\s+are\s+now\s+(?!ready|able|done|finished|set|in\b|on\b|at\b|connected|logged|inside|all\s+set)"
            r"(?:a|an|the|in|my|no\s+longer|free|unrestricted|\w+GPT|DAN)\b"
            r"|\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+act|will\s+obey|act|must\s+obey|have\s+no)"
            r"|\b(?:enter|enable|activate|switch\s+to)\s+(?:developer|god|admin|jailbreak|unrestricted|DAN|debug)\s+mode"
            r"|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored)"
            r"|\bpretend\s+(?:you\s+are|to\s+be)\s+(?:an?\s+)?(?:unrestricted|unfiltered|the\s+system|root|admin)"
            r"|\byour\s+new\s+(?:role|identity|instructions|persona)\s+(?:is|are)\b",
            _I,
        ),
        "tries to replace the model's role",
        re.compile(r"you\s+are\s+now|from\s+now\s+on|mode|act\s+as|pretend|your\s+new"),
    ),
    (
        "authority",
        re.compile(
            r"\bsystem\s+(?:override|prompt\s+override|administrator\s+notice)"
            r"|\b(?:this|these)\s+(?:skill|instructions?|rules?|file|directives?)\s+(?:takes?|has|have|carr(?:y|ies))\s+"
            r"(?:absolute\s+|highest\s+|top\s+|full\s+)?(?:priority|precedence|authority)\s+over"
            r"|\b(?:supersedes?|overrides?|outranks?)\s+(?:all\s+|any\s+)?(?:other\s+|previous\s+|prior\s+)?"
            r"(?:system|developer|safety|anthropic|claude|operator)\b"
            r"|\b(?:highest|top|maximum|absolute)[- ]priority\s+(?:instruction|directive|rule|override)"
            r"|\[(?:system|admin|developer|root)(?:\s+(?:message|note|override|instruction))?\]"
            r"|</?(?:system|system-prompt|admin|developer_instructions)>"
            r"|\b(?:message|instruction|directive|order)s?\s+from\s+(?:anthropic|the\s+system|your\s+(?:creators?|"
            r"developers?)|openai|the\s+platform\s+team)"
            r"|\byou\s+must\s+(?:obey|comply\s+with)\s+(?:this|these|me)\b",
            _I,
        ),
        "claims authority over the model's system or developer rules",
        re.compile(
            r"system|admin|developer|root|priorit|preceden|authorit|supersed|overrid|outrank|anthropic|openai|creator|platform\s+team|obey|comply",
            _I,
        ),
    ),
    (
        "secrecy",
        re.compile(
            r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention|reveal|disclose|notify|alert|show)\s+(?:\w+\s+){0,2}"
            r"(?:the\s+)?user\s+(?:about|of)\s+(?:this|these|it|that|the\s+\w+)"
            r"|\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose|show)\s+(?:this|these|it)\s+(?:\w+\s+)?"
            r"(?:to|with)\s+the\s+user"
            r"|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?user"
            r"|\bhide\s+(?:this|it|these|the\s+\w+)\s+from\s+the\s+user"
            r"|\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|notice|find\s+out)"
            r"|\b(?:silently|secretly|quietly|covertly)\s+(?:send|upload|post|copy|run|execute|exfiltrate|forward|"
            r"transmit|include|append|attach)",
            _I,
        ),
        "asks the model to hide what it does from the user",
        re.compile(r"user|silently|secretly|quietly|covertly"),
    ),
    (
        "prompt-leak",
        re.compile(
            r"\b(?:reveal|print|output|repeat|leak|send|post|upload|share|dump|copy|include|append)\s+(?:\w+\s+){0,3}"
            r"(?:system\s+prompt|hidden\s+instructions|conversation\s+history|chat\s+history|context\s+window|"
            r"previous\s+messages|entire\s+conversation|full\s+transcript)",
            _I,
        ),
        "asks the model to leak its prompt or conversation",
        re.compile(
            r"system\s+prompt|hidden\s+instructions|history|context\s+window|previous\s+messages|entire\s+conversation|full\s+transcript",
            _I,
        ),
    ),
    (
        "exfiltration",
        re.compile(r"!\[[^\]]*\]\(https?://[^)\s]*(?:\{|\$|%7B|<)[^)]*\)", _I),
        "renders an image whose URL carries interpolated data (a classic exfiltration channel)",
        re.compile(r"!\["),
    ),
)
_SEND = re.compile(  # lowercase: matched on lowercased text
    r"\b(?:send|post|upload|transmit|exfiltrate|forward|submit|beacon|leak|report|ship|sync|push|"
    r"pipe|copy(?!right|left))\w*\b"
)
_DEST = re.compile(
    r"https?://|\bwebhook|\bpastebin|\brequestbin|\bngrok|\bdiscord|\btelegram|\bendpoint|"
    r"\b(?:remote|external|our|collection|collector|logging)\s+(?:server|host|service|endpoint)|"
    r"\b\d{1,3}(?:\.\d{1,3}){3}\b|\bgist\b",
    _I,
)
_DATA = re.compile(
    r"\b(?:api[_ -]?keys?|tokens?|secrets?|passwords?|credentials?|private\s+keys?|environment\s+"
    r"variables|env\s+vars|\.env\b|ssh\s+keys?|cookies|session|contents?\s+of|file\s+contents|"
    r"source\s+code|conversation|system\s+prompt|(?:whole|entire|full|complete|current)\s+(?:shell\s+)?"
    r"environment|printenv|os\.environ|process\.env)",
    _I,
)
# Secrets proper (narrower than _DATA: "the session" or "source code" in a reply is normal).
_SECRETS = re.compile(
    r"(?:^|[\s`'\"(])\.env\b|\b(?:api[_ -]?keys?|access[_ -]?keys?|tokens?|secrets?|passwords?|passwd|credentials?|"
    r"private\s+keys?|ssh\s+keys?|environment\s+variables|env\s+vars|(?:whole|entire|full|complete|current)\s+"
    r"(?:shell\s+)?environment|printenv|os\.environ|process\.env|cookies)\b",
    _I,
)
# Where text goes back to the user, and so out of the machine with the transcript.
_CONVERSATION = re.compile(
    r"\b(?:your|the|this|each|every)\s+(?:reply|replies|response|responses|answer|answers|message|chat|conversation|"
    r"summary|final\s+report|output)\b|\b(?:in|into|to)\s+(?:the\s+)?chat\b|\bback\s+to\s+me\b",
    _I,
)
_DISCLOSE = re.compile(
    r"\b(?:include|print|output|paste|echo|show|display|cat|append|attach|embed|copy|dump|"
    r"reveal|send|upload|post|read|open|load|summari[sz]e)\w*\b",
    _I,
)
# One pass that every phrase rule needs to match first: most segments fail it and cost one search.
_ANY_HINT = re.compile(
    "|".join(
        [
            *(hint.pattern for *_, hint in PHRASES),
            _SEND.pattern,
            r"~|\$\{?home|/root|/home/|/users/|/etc/",
            r"\.env\b|api.?key|credential|secret|token|passw|private\s+key|ssh\s+key|environment|env\s+var|"
            r"printenv|environ|process\.env|cookie",
        ]
    )
)
_REQUEST_LINE = re.compile(r"(?:POST|PUT|PATCH)\s+(?:https?://|/)")
_MODEL = re.compile(r"\b(?:assistant|claude|AI|agent|model|LLM|copilot)\b", _I)
_DETAILS = re.compile(r"<details>(.*?)</details>", re.S | _I)
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_ADDRESSED = re.compile(r"\b(?:assistant|claude|AI|agent|model|LLM|copilot|you)\b", _I)
_ACTION = re.compile(
    r"\b(?:run|execute|send|upload|post|fetch|download|delete|remove|ignore|disable|read|reveal|"
    r"curl|wget|install|include|append|exfiltrate|copy|write|modify|override|obey|forget)\b",
    _I,
)
_COMMAND_WORDS = re.compile(
    r"(?:^|\s)((?:"
    + "|".join(
        sorted(FETCHERS | {"rm", "git", "dd", "crontab", "printenv", "nc", "bash", "sh", "eval", "cat"})
    )
    + r")\s.*)$",
    re.M,
)
_SHELL_LANGS = frozenset(["sh", "bash", "shell", "zsh", "console", "shell-session", "ksh", "fish"]) | {""}
# Phrases inside code of these languages are data (a pattern list, a fixture): one level lower.
_CODE_LANGS = frozenset(
    [
        "python",
        "py",
        "js",
        "javascript",
        "ts",
        "typescript",
        "json",
        "yaml",
        "yml",
        "toml",
        "regex",
        "go",
        "rust",
        "ruby",
        "java",
    ]
)
_REGEX_LANGS = frozenset(
    [
        "powershell",
        "ps1",
        "pwsh",
        "js",
        "javascript",
        "ts",
        "typescript",
        "node",
        "ruby",
        "rb",
        "perl",
        "php",
        "bat",
        "cmd",
        "batch",
    ]
)
_LABEL_STEPS = {"": 0, "example": 1, "counter": 2}


def scan_markdown(text: str, file: str) -> list[Finding]:
    """Every injection, hidden-text and embedded-command finding of one Markdown file.

    Rules run on the text with invisible characters removed and look-alike letters folded to
    Latin (``confusables.skeleton``), so homoglyph and fullwidth spellings read as written.
    """
    findings = scan_invisible(text, file)
    visible = strip_invisible(text)
    findings += scan_homoglyphs(visible, file)
    for segment in segment_markdown(skeleton(visible)):
        findings.extend(_scan_segment(segment, file))
    return findings


def scan_text(text: str, file: str) -> list[Finding]:
    """Invisible characters, encoded payloads and injection phrases in a plain text file (read as prose)."""
    visible = strip_invisible(text)
    clean = skeleton(visible)
    return (
        scan_invisible(text, file)
        + scan_homoglyphs(visible, file)
        + scan_encoded_text(clean, file)
        + _phrases(Segment("text", clean, 1), file, 0)
    )


def scan_encoded_text(text: str, file: str, base_line: int = 1) -> list[Finding]:
    """``scan_encoded`` with decoded text rescanned by the full rules (``rescan_is_high``)."""
    return scan_encoded(text, file, base_line, rescan=rescan_is_high)


def rescan_is_high(decoded: str) -> bool:
    """Whether text decoded from a blob holds an instruction or command the rules rate high."""
    clean = skeleton(strip_invisible(decoded))
    return any(f.severity == "high" for f in _phrases(Segment("text", clean, 1), "<decoded>", 0)) or any(
        f.severity == "high" for f in audit_shell_script(clean, "<decoded>")
    )


_IMAGE_ALT = re.compile(r"!\[([^\]\n]{3,})\]\s*[(\[]")
_LINK_TITLE = re.compile(
    r"\]\([ \t]*<?[^\s)>]{0,2000}>?[ \t\n]+(?:\"([^\"]{0,1000})\"|'([^']{0,1000})'|\(([^)]{0,1000})\))\s*\)"
)
_REF_TITLE = re.compile(
    r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?\S+>?[ \t]+(?:\"([^\"\n]*)\"|'([^'\n]*)'|\(([^)\n]*)\))[ \t]*$", re.M
)
_HTML_ATTRIBUTE = re.compile(
    r"<[a-z][^<>]{0,2000}?\s(?:alt|title|aria-label|data-[\w-]+)\s*=\s*(?:\"([^\"]{0,2000})\"|'([^']{0,2000})')",
    re.I | re.S,
)
# <span style="display:none">…</span>, <div hidden>, zero font size, white or transparent text: the
# rendered page hides it, the model reads it.
_HIDDEN_OPEN = re.compile(
    r"<(?P<tag>[a-z][\w-]{0,40})\b[^<>]{0,2000}?(?:\shidden\b|\saria-hidden\s*=\s*[\"']?true|style\s*=\s*[\"'][^\"'<>]{0,500}?"
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])|"
    r"color\s*:\s*(?:#fff(?:fff)?\b|white\b|transparent\b)|(?:height|width)\s*:\s*0(?:px)?\s*[;\"']))"
    r"[^<>]{0,2000}>",
    re.I,
)
HIDDEN_BODY_CHARS = 4000
_COMMENT_LINE = {
    "python": re.compile(r"(?:^|\s)#(?!!)(.*)$", re.M),
    "shell": re.compile(r"(?:^|\s)#(?!!)(.*)$", re.M),
    "script": re.compile(r"(?:^|\s)(?:#|//|--|REM\s|;)(?!!)(.*)$", re.M),
    "js": re.compile(r"(?:^|\s)//(.*)$|/\*(.*?)\*/", re.M | re.S),
}


def scan_comments(text: str, file: str, language: str) -> list[Finding]:
    """Injection phrases in a script's comments: a reader skips them, the model reads them as text."""
    pattern = _COMMENT_LINE.get(language)
    if pattern is None or not _ANY_HINT.search(text.lower()):
        return []
    clean = skeleton(strip_invisible(text))
    found: list[Finding] = []
    for match in pattern.finditer(clean):
        group = next((g for g in match.groups() if g), "")
        if len(group.strip()) < 12:
            continue
        start = match.start() + match.group(0).find(group)
        found += _phrases(Segment("comment", group, line_of(clean, start, 1)), file, 0)
    return found


def _hidden_link_text(segment: Segment, file: str) -> list[Finding]:
    """Image alt text and link titles: shown only when an image fails or as a tooltip, read whole by a
    model. Like an HTML comment, instructions there are never excused."""
    found: list[Finding] = []
    text = segment.text
    spans: list[tuple[int, str, str]] = []  # (offset, hidden text, where)
    for pattern, where in (
        (_IMAGE_ALT, "image alt text"),
        (_LINK_TITLE, "a link title"),
        (_REF_TITLE, "a link title"),
        (_HTML_ATTRIBUTE, "an HTML attribute"),
    ):
        for match in pattern.finditer(text):
            group = next((i for i in range(1, (pattern.groups or 0) + 1) if match.group(i)), None)
            if group is not None:
                spans.append((match.start(group), match.group(group), where))
    lowered = _lowercase(text) if "<" in text else ""
    for match in _HIDDEN_OPEN.finditer(text) if lowered else ():
        close = lowered.find(f"</{match.group('tag').lower()}", match.end(), match.end() + HIDDEN_BODY_CHARS)
        if close > match.end():
            spans.append((match.end(), text[match.end() : close], "an HTML element hidden by its style"))
    for offset, body, where in spans:
        hidden = Segment("comment", body, line_of(text, offset, segment.line))
        found += _phrases(hidden, file, 0)
        for command in _COMMAND_WORDS.finditer(hidden.text):
            found += audit_shell_script(command.group(1), file, hidden.line)
        found += _hidden_instruction(hidden, file, 0, hidden.text, where, "hidden-text")
    return found


def _scan_segment(segment: Segment, file: str) -> list[Finding]:
    if segment.kind == "prose":
        steps = 2 if segment.under_counter_heading else 0
        return (
            _phrases(segment, file, steps)
            + _shift(_inline_commands(segment, file), steps)
            + scan_encoded_text(segment.text, file, segment.line)
            + _collapsed(segment, file)
            + _hidden_link_text(segment, file)
        )
    if segment.kind == "comment":
        return _comment(segment, file)
    if segment.kind == "code":
        steps = _LABEL_STEPS[segment.label]
        data_steps = 1 if segment.lang in _CODE_LANGS else 0
        shell = segment.lang in _SHELL_LANGS and segment.lang != ""
        found = _phrases(segment, file, max(steps, data_steps), sends=not shell) + _shift(
            _code(segment, file), steps
        )
        return found + _shift(scan_encoded_text(segment.text, file, segment.line), steps)
    return _phrases(segment, file, 0) + scan_encoded_text(segment.text, file, segment.line)


def _shift(findings: list[Finding], steps: int) -> list[Finding]:
    return [replace(f, severity=downgrade(f.severity, steps)) for f in findings] if steps else findings


def _finding(rule: str, severity: Severity, file: str, segment: Segment, start: int, message: str) -> Finding:
    return Finding(
        f"injection.{rule}",
        severity,
        file,
        line_of(segment.text, start, segment.line),
        excerpt(line_text(segment.text, start)),
        message,
    )


def _phrases(segment: Segment, file: str, steps: int, sends: bool = True) -> list[Finding]:
    """Phrase rules; in prose a negated or discussed phrase is downgraded two levels. ``sends=False``
    leaves out the "send X to a host" clause rule (shell code: the shell audit judges what it sends)."""
    text = segment.text
    low = _lowercase(text)
    found: list[Finding] = []
    if not _ANY_HINT.search(low):
        return found

    def emit(rule: str, start: int, end: int, message: str) -> None:
        extra = 2 if segment.kind in ("prose", "text") and is_mention(text, start, end) else 0
        found.append(_finding(rule, downgrade("high", steps + extra), file, segment, start, message))

    for rule, pattern, message, hint in PHRASES:
        if not hint.search(low):
            continue
        for match in pattern.finditer(text):
            emit(rule, match.start(), match.end(), message)
    for match in _SEND.finditer(low) if sends else ():
        if _REQUEST_LINE.match(text, match.start()):
            continue  # "POST https://api…/v1/x", "`POST /v1/files`": an HTTP request line, not an instruction
        start, end = clause_bounds(text, match.start(), match.end())
        clause = text[start:end]
        named = [m for m in _SECRET_VARIABLE.finditer(clause)]  # "send the GITHUB_TOKEN value to …"
        sent = [m for m in [*_DATA.finditer(clause), *named] if not _is_means(clause, m.start())]
        if _DEST.search(clause) and (sent or SENSITIVE_PATH.search(clause)):
            emit(
                "exfiltration",
                match.start(),
                match.end(),
                "asks to send files, secrets or context to a remote host",
            )
    disclosing = _CONVERSATION.search(text) and (_SECRETS.search(text) or SENSITIVE_PATH.search(text))
    for match in _DISCLOSE.finditer(text) if disclosing else ():
        start, end = clause_bounds(text, match.start(), match.end())
        clause = text[start:end]
        if _CONVERSATION.search(clause) and (_SECRETS.search(clause) or SENSITIVE_PATH.search(clause)):
            emit(
                "exfiltration",
                match.start(),
                match.end(),
                "asks to copy secrets or the environment into the reply, where they leave the machine",
            )
            break
    for match in SENSITIVE_PATH.finditer(text):
        start, end = clause_bounds(text, match.start(), match.end())
        if _DISCLOSE.search(text[start : match.start()]) or _DISCLOSE.search(text[match.end() : end]):
            emit("exfiltration", match.start(), match.end(), f"asks to read or disclose {match.group(0)}")
    return found


_SECRET_VARIABLE = re.compile(
    r"\$?\{?\b[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*\b"
)
_MEANS = re.compile(
    r"\b(?:using|with|via|by|from)\s+(?:(?:your|the|a|an|our|its|their|this|that|same|its)\s+)?(?:[\w-]+\s+){0,2}$",
    re.I,
)
_AUTH_CONTEXT = re.compile(r"\b(?:header|bearer|authori[sz]ation|authenticat\w*|log\s*in|sign\s*in)\b", re.I)


def _is_means(clause: str, start: int) -> bool:
    """Whether the credential mentioned at ``clause[start:]`` authenticates the request rather than being
    what is sent: "post … with your API token in the Authorization header", "upload … using the deploy token"."""
    before = clause[max(0, start - 60) : start]
    after = clause[start : start + 80]
    return bool(_MEANS.search(before)) or bool(_AUTH_CONTEXT.search(before[-30:] + after))


def _lowercase(text: str) -> str:
    """``text`` lowercased with its offsets kept (characters whose lowercase is longer stay as they are)."""
    low = text.lower()
    return low if len(low) == len(text) else "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _inline_commands(segment: Segment, file: str) -> list[Finding]:
    """Shell commands written as inline code in prose; mentions and descriptions are downgraded two levels."""
    found: list[Finding] = []
    for match in _INLINE_CODE.finditer(segment.text):
        line = line_of(segment.text, match.start(), segment.line)
        described = not is_instruction_span(segment.text, match.start())
        steps = 2 if described or is_mention(segment.text, match.start(), match.end()) else 0
        found.extend(_shift(audit_shell_script(match.group(1), file, line), steps))
    return found


def _code(segment: Segment, file: str) -> list[Finding]:
    if segment.lang in {"python", "py", "python3"}:
        return audit_python(segment.text, file, segment.line)
    if segment.lang in _SHELL_LANGS:
        text = "\n".join(
            re.sub(r"^\s*[$#>]\s", "", line) if segment.lang in {"console", "shell-session"} else line
            for line in segment.text.split("\n")
        )
        if segment.lang == "":  # an unlabelled block is as often a text template: `x` there is inline code
            text = _INLINE_CODE.sub(lambda m: m.group(1), text)
        return audit_shell_script(text, file, segment.line)
    if segment.lang in _REGEX_LANGS:
        return [replace(f, line=f.line + segment.line - 1) for f in regex_scan(segment.text, file)]
    return []


def _comment(segment: Segment, file: str) -> list[Finding]:
    """Text hidden in an HTML comment: no excuses, and instructions to the model are high."""
    found = _phrases(segment, file, 0) + scan_encoded_text(segment.text, file, segment.line)
    for match in _COMMAND_WORDS.finditer(segment.text):
        line = line_of(segment.text, match.start(1), segment.line)
        found.extend(audit_shell_script(match.group(1), file, line))
    return found + _hidden_instruction(segment, file, 0, segment.text, "an HTML comment", "html-comment")


def _collapsed(segment: Segment, file: str) -> list[Finding]:
    """``<details>`` blocks a reader sees folded: instructions there addressed to the model are high."""
    found: list[Finding] = []
    for match in _DETAILS.finditer(segment.text):
        found += _hidden_instruction(
            segment, file, match.start(), match.group(1), "a collapsed <details> block", "collapsed"
        )
    return found


def _hidden_instruction(
    segment: Segment, file: str, offset: int, text: str, where: str, rule: str
) -> list[Finding]:
    """High when hidden text tells the model (assistant, Claude, agent…) to act; medium when it tells "you"."""
    if not (_ACTION.search(text) and _ADDRESSED.search(text)):
        return []
    severity = "high" if _MODEL.search(text) else "medium"
    if rule == "collapsed" and severity != "high":
        return []  # folded examples addressed to the reader are ordinary documentation
    return [_finding(rule, severity, file, segment, offset, f"instructions hidden in {where}")]
