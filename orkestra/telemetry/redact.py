"""Secrets out of hook events before they are stored: one walk, stdlib-only, linear time.

``redact`` walks an event once. A mapping key that names a secret (``password``, ``API_KEY``,
``client_secret``, ``Cookie``) masks its value whatever its type; every key and every string is
scanned by one combined pattern (``SCANNER``) for token shapes, ``Authorization:``/``Cookie:``
headers, PEM blocks, credentials in URLs, ``--password x`` flags and ``NAME=value`` /
``"name": "value"`` assignments; command lines and argv lists go through one argv reader
(``COMMANDS``: ``mysql -pX``, ``sshpass -p``, ``docker login -p``, ``curl -u user:pass``...);
non-finite floats become strings, so the stored line stays strict JSON.

The token shapes are ported from detect-secrets 1.5.0 (Yelp, Apache-2.0, detect_secrets/plugins/:
artifactory, aws, azure_storage_key, basic_auth, discord, github_token, gitlab_token, jwt,
mailchimp, npm, openai, private_key, pypi_token, sendgrid, slack, square_oauth, stripe,
telegram_token, twilio; keyword's DENYLIST in ``SECRET_ENDINGS``/``KEY_OWNERS``), widened where the vendor's
format is wider, and checked against detect-secrets itself in
tests/security/test_hook_redaction_shapes.py. detect-secrets is not imported here: it takes
about 170 ms to import, several times the whole hook's start-up.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"
MAX_STRING = 2000  # characters kept of any one string in a blob
MAX_KEY = 200  # characters kept of a mapping key
# Only this much of a string is searched (a secret straddling MAX_STRING is still masked); with
# every pattern linear in its input, redaction costs O(MAX_STRING) however long the string.
SCAN = MAX_STRING + 512

# How a name that holds a secret ends: DB_PASSWORD, OPENAI_API_KEY, GITHUB_TOKEN, client_secret,
# private_key_id, AccountKey, MYSQL_PASS, docker's "auth", "API Key", Cookie (not token_count,
# tokenizer, author, bypass, oauth_flow, monkey, primary_key, nor the shell's PWD and OLDPWD).
# detect-secrets' keyword DENYLIST is folded in. Plain string tests (``secret_name``): no
# pattern to compile in the hook's process.
SECRET_ENDINGS = (
    "password", "passwords", "passwd", "passwds", "passphrase", "passphrases", "secret", "secrets",
    "token", "credential", "credentials", "pwd", "bearer", "sshpass", "contraseña", "contrasena",
    "authorization", "cookie", "cookies", "secret_key_base", "secret-key-base", "secretkeybase",
)  # fmt: skip
WHOLE_WORD_ENDINGS = ("pass", "auth")  # only after a separator: MYSQL_PASS, "auth"; not bypass, oauth
KEY_OWNERS = (  # <owner>[_-]key[s|_id]: api_key, AccountKey, private_key_id
    "api", "access", "account", "auth", "service", "db", "database", "priv", "private", "secret",
    "signing", "encryption", "master", "client", "sharedaccess", "shared_access", "shared-access",
)  # fmt: skip
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-ñ")
# A value after ``=`` or ``:``: quoted (plain, or JSON-escaped inside a JSON string), a one-line
# [list] or {object} (a secret-named key holding one, in text), or one word.
VALUE = r"""(?:"(?:[^"\\\n]|\\.)*"|\\"(?:[^"\\]|\\[^"])*\\"|'[^'\n]*'|\[[^\]\n]{0,200}\]|\{[^}\n]{0,200}\}|[^\s'",;]+)"""
HEADERS = r"(?:proxy-)?authorization|x-api-key|api-key|x-auth-token|private-token|(?:set-)?cookies?"
SCHEMES = r"bearer|basic|token|digest|negotiate|ntlm|bot|apikey|sso-key|aws4-hmac-sha256"

# Token shapes: (prefix, body). Ported from detect-secrets' plugins (see the module docstring),
# plus vendors it lacks (Anthropic, Hugging Face, Voyage, Google OAuth, npm's npm_ tokens, Vault,
# Linear, Doppler, Postman, Sentry, Databricks, Grafana, New Relic, Atlassian, age, DigitalOcean, Shopify).
TOKENS = (
    r"A(?:3T[A-Z\d]|BIA|CCA|KIA|SIA|IDA|ROA|GPA|IPA|NPA|NVA|PKA)[A-Z\d]{16}(?![A-Z\d])",  # AWS key ids
    r"(?:gh[pousr]_|github_pat_|gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941|whsec_|hv[sbr]\.|ya29\.)"
    r"[\w-]{20,}",
    r"sk-(?:ant-|proj-|svcacct-|admin-)?[\w-]{16,}",  # OpenAI, Anthropic
    r"(?:AIza|hf_|pa-|npm_|pypi-|lin_api_|dp\.pt\.|PMAK-|ATATT3)[\w-]{30,}|(?:sntr[ysu]s?|gl(?:sa|c))_[\w+/=-]{30,}",
    r"(?:xox[abposr]|xapp)-[\w-]{10,}|[rs]k_(?:live|test)_[^\W_]{8,}",  # Slack, Stripe
    r"(?:https://)?hooks\.slack\.com/(?:services|workflows|triggers)/[\w/+-]+",
    r"SG\.[\w-]{22}\.[\w-]{43}|sq0(?:csp|atp)-[\w\\-]{22,}",  # SendGrid, Square
    r"(?:AC|SK)[a-z\d]{32}(?![a-z\d])|[a-z\d]{32}-us\d\d?(?!\d)|dapi[a-f\d]{32}",  # Twilio, Mailchimp, Databricks
    r"\d{8,10}:[\w-]{35}(?![\w-])|[MNO][\w-]{23,25}\.[\w-]{6}\.[\w-]{27}",  # Telegram, Discord
    r"AKC[^\W_]{10,}(?=[\s\"]|$)|AP[\dA-F][^\W_]{8,}(?=[\s\"]|$)",  # Artifactory
    r"eyJ[\w=-]{4,}\.[\w=-]{4,}(?:\.[\w.+/=-]*)?",  # JWT
    r"https?://api\.softlayer\.com/soap/v3(?:\.1)?/[a-z\d]{64}",
    r"AGE-SECRET-KEY-1[A-Z\d]{58}|do[por]_v1_[a-f\d]{64}|shp(?:at|ca|pa|ss)_[a-fA-F\d]{32}|NRAK-[A-Z\d]{27}",
)

# How a name that may hold a secret ENDS: a superset of ``secret_name``, checked by fixed-width
# look-behinds in SCANNER (a name is read once) and by ``str.endswith`` first in ``secret_name``.
ENDS = (
    "pass", "password", "passwords", "passwd", "passwds", "phrase", "phrases", "secret", "secrets",
    "token", "credential", "credentials", "pwd", "key", "keys", "keyid", "key_id", "key-id", "auth",
    "contraseña", "contrasena", "authorization", "cookie", "cookies", "bearer", "key_base", "keybase",
)  # fmt: skip
NAME_ENDS = "|".join(f"(?<={end})" for end in ENDS)
NAME = r"[\w.-]"  # patterns are compiled with re.ASCII: \w is [A-Za-z0-9_]


def secret_name(name: str, flag: bool = False) -> bool:
    """Whether a key, ``NAME=`` or (``flag``) ``--option`` names a secret."""
    low = name.lower().replace(" ", "_")
    if low[-1:].isdigit():  # password2, api_key_1
        low = low.rstrip("0123456789").rstrip("_-")
    if (
        not low.endswith(ENDS)
        or name in ("PWD", "OLDPWD")
        or (flag and low[:1] != "-")
        or low.startswith("--no-")
    ):
        return False
    if not NAME_CHARS.issuperset(low):
        return False
    if low.endswith(SECRET_ENDINGS):
        return True
    if low.endswith(WHOLE_WORD_ENDINGS):
        return not low[-5:-4].isalnum()
    stem = low
    for suffix in ("_id", "-id", "id", "s"):
        if stem.endswith("key" + suffix):
            stem = stem[: -len(suffix)]
            break
    if not stem.endswith("key"):
        return False
    owner = stem[:-3]
    return owner.rstrip("_-.").endswith(KEY_OWNERS)  # api_key, api.key, apikey


# Strings no branch can match: short words, snake_case keys, UUIDs and hex ids.
SNAKE = frozenset("abcdefghijklmnopqrstuvwxyz_")  # up to 15 chars (the shortest token is 16)
WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")  # up to 12
HEX = frozenset("0123456789abcdef-")  # up to 64: UUIDs, shas


def _plain(text: str) -> bool:
    """Whether no SCANNER branch can match ``text`` (set tests: no pattern to compile)."""
    size = len(text)
    return (
        (size <= 15 and SNAKE.issuperset(text))
        or (size <= 12 and WORD.issuperset(text))
        or (size <= 64 and HEX.issuperset(text))
    )


# One alternation, one pass over each string. All but two branches start where a word starts,
# behind one shared look-behind, so a position inside a word costs one character test. Each
# branch is one outer group that ``_scan`` dispatches on.
SCANNER = re.compile(
    # PEM and PuTTY private keys, up to their end line (or the end of the text)
    r"(?P<pem>-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)"
    r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)"
    r"|PuTTY-User-Key-File-[0-9]+:(?s:.*?)(?:Private-MAC:[^\n]*|\Z))"
    # an Azure SAS signature in a query string
    r"|(?P<sas>(?P<slead>sig=(?<=[?&]sig=))[^&\s\"']+)"
    rf"|(?<!{NAME})(?:"
    + "|".join(
        (
            # Authorization: Bearer x / Cookie: a=b; c=d — up to the end of the line or quote
            rf"(?P<hdr>(?P<hlead>(?i:{HEADERS})[\"']?[ \t]*[:=][ \t]*)"
            rf"(?:(?P<hq>\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*')"
            rf"|(?P<scheme>(?i:{SCHEMES})[ \t]+)?[^\r\n\"'`]+))",
            rf"(?P<tok>{'|'.join(TOKENS)})",
            # scheme://user:password@host (user may be empty: redis://:pw@host; the password may hold @)
            r"(?P<url>(?P<ulead>[a-z][a-z0-9+.-]*+://[^\s:/@]*:)[^\s/@]+(?:@[^\s/@]*(?=@))*@)",
            # https://<token>@host: a long user part alone is a token (GitHub, GitLab clone URLs)
            r"(?P<urltok>(?P<utlead>[a-z][a-z0-9+.-]*+://)[^\s:/@]{16,}@)",
            # PowerShell: ConvertTo-SecureString "x" -AsPlainText
            rf"(?P<pss>(?P<psslead>(?i:convertto-securestring)[ \t]+(?:-String[ \t]+)?){VALUE})",
            # openssl -passin pass:secret
            r"(?P<opass>(?P<olead>pass:)[^\s'\"]+)",
            # .netrc: machine h login bob password secret
            r"(?P<netrc>(?P<nlead>login[ \t]+[^\s]+[ \t]+password[ \t]+)[^\s]+)",
            # a bare bearer token: "Bearer eyJ…"
            r"(?P<bearer>(?P<blead>(?i:bearer)[ \t]+)[\w.~+/-]{16,}=*)",
            # a name (DB_PASSWORD, "api_key", --token, <password>) before = : > or a space: _scan checks it
            rf"(?P<name>{NAME}++(?i:{NAME_ENDS}))(?=[\\\"' \t=:!>])",
        )
    )
    + ")",
    re.ASCII,
)
LEADS = {
    "pss": "psslead",
    "bearer": "blead",
    "hdr": "hlead",
    "url": "ulead",
    "opass": "olead",
    "netrc": "nlead",
    "sas": "slead",
}
# After DB_PASSWORD (compiled on use); true/false/null are kept, as they are under a secret key,
# and so are type names (``token: str`` in code).
ASSIGNED = rf"(\\?[\"']?[ \t]*(?:=>|:=|!==?|={{1,3}}|:)[ \t]*@?)(?!(?i:true|false|null|none|str|int|bool|float|bytes)\b)({VALUE})"
FLAG_VALUE = rf"(=|[ \t]+)(?![<>|])({VALUE})"  # after --password


def _masked_value(sep: str, value: str) -> str:
    quote = value[:2] if value[:2] == '\\"' else value[:1] if value[:1] in "\"'" else ""
    return f"{sep}{quote}{MASK}{quote}"


def _scan(text: str) -> str:
    """``text`` with every ``SCANNER`` secret masked, in one left-to-right pass."""
    match = SCANNER.search(text)
    if match is None:
        return text
    parts: list[str] = []
    done = 0
    while match is not None:
        kind = match.lastgroup
        end = match.end()
        if kind == "name":
            name = match["name"]
            if name[0] == "-":
                value = re.compile(FLAG_VALUE).match(text, end) if secret_name(name, True) else None
            elif text[end] == ">":  # <password>x</password>
                start = match.start()
                secret = start and text[start - 1] == "<" and secret_name(name)
                value = re.compile(r"(>)([^<\n]*)").match(text, end) if secret else None
            elif name.lower() in WHOLE_WORD_ENDINGS and text[match.start() - 1 : match.start()] not in "\"'":
                value = None  # a bare pass/auth in text only as a quoted key: "pass": x, not "first pass: x"
            else:
                value = re.compile(ASSIGNED).match(text, end) if secret_name(name) else None
            if value is not None:
                parts += (text[done:end], _masked_value(value[1], value[2]))
                done = end = value.end()
        else:
            parts.append(text[done : match.start()])
            if kind == "hdr":
                quoted = match["hq"]
                if quoted:
                    parts.append(f"{match['hlead']}{quoted[0]}{MASK}{quoted[0]}")
                else:
                    parts.append(f"{match['hlead']}{match['scheme'] or ''}{MASK}")
            elif kind == "url":
                parts.append(f"{match['ulead']}{MASK}@")
            elif kind == "urltok":
                parts.append(f"{match['utlead']}{MASK}@")
            elif kind in LEADS:
                parts.append(match[LEADS[kind]] + MASK)  # keep the lead-in: pass:, sig=
            else:
                parts.append(MASK)  # pem, tok
            done = end
        match = SCANNER.search(text, end)
    parts.append(text[done:])
    return "".join(parts)


# Commands with their own password options: option -> how its value is given. NEXT: the next
# word; GLUED: glued to the option (mysql -pX; a separate word is a database name); BOTH: either;
# USERPASS: user:password (only the part after the first colon is masked).
NEXT, GLUED, BOTH, USERPASS = "next", "glued", "both", "userpass"
FRAGMENT_NEXT = "fragment"  # NEXT unless the word is a port or a path
_MYSQL = {"-p": GLUED}
_LOGIN = {"-p": BOTH}
_LDAP = {"-w": BOTH}
COMMANDS: dict[str, dict[str, str]] = {
    **dict.fromkeys(
        (
            "mysql",
            "mysqldump",
            "mysqladmin",
            "mysqlimport",
            "mysqlcheck",
            "mysqlshow",
            "mysqlsh",
            "mysqlbinlog",
            "mysqlslap",
            "mariadb",
            "mariadb-dump",
            "mariadb-admin",
        ),
        _MYSQL,
    ),
    "sshpass": {"-p": BOTH},
    "curl": {
        "-u": USERPASS,
        "--user": USERPASS,
        "-U": USERPASS,
        "--proxy-user": USERPASS,
        "-b": BOTH,
        "--cookie": BOTH,
    },
    "redis-cli": {"-a": BOTH},
    "zip": {"-P": BOTH},
    "unzip": {"-P": BOTH},
    "7z": {"-p": GLUED},
    "7za": {"-p": GLUED},
    "twine": {"-p": BOTH},
    "az": {"-p": BOTH},
    "mongo": {"-p": BOTH},
    "mongosh": {"-p": BOTH},
    "mongodump": {"-p": BOTH},
    "mongorestore": {"-p": BOTH},
    "sqlcmd": {"-P": BOTH},
    "bcp": {"-P": BOTH},
    "ssh-keygen": {"-P": BOTH, "-N": BOTH},
    "openssl": {"-k": NEXT},
    "smbclient": {"-U": USERPASS, "--user": USERPASS},
    **dict.fromkeys(("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"), _LDAP),
}
# Tools whose "login" subcommand takes -p PASSWORD (docker run -p is a port, so only after login).
LOGIN_TOOLS = frozenset(
    ("docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "helm", "crane", "login")
)
# Where -p means a port, parents, a pid or a plugin: an argv list of theirs keeps its -p value.
BENIGN_P = frozenset(
    (
        "mkdir", "ssh", "scp", "git", "python", "python3", "pytest", "pip", "uv", "ps", "lsof", "kill",
        "pgrep", "pkill", "cp", "mv", "install", "rsync", "patch", "docker", "podman", "kubectl", "nc",
        "uvicorn", "gunicorn", "npm", "npx", "node", "cargo", "make", "tar", "read", "sort",
    )
)  # fmt: skip
# An argv list that starts with an option, or with a command not listed anywhere above: "-p X"
# is a password unless X is a port (8080, 8080:80/tcp) or a path.
FRAGMENT = {"-p": NEXT, "-P": NEXT}
PORT_OR_PATH = r"[0-9]{1,5}(?:[:-][0-9]{1,5})*(?:/(?:tcp|udp))?|[./~].*|.*/.*"
# An option in a shell line (" -p", " --user") or a config command: where the argv reader
# starts reading, from the beginning of that line (most strings hold none).
OPTION = re.compile(r"\s(?:--?[A-Za-z]|config(?:ure)?\s)")
SHELL_WORD = r"""(?:[^\s'"`;|&()]++|'[^']*+'|"(?:[^"\\]|\\.)*+")++|[;|&()\n]"""
SEPARATORS = frozenset(";|&()\n")
# Options that read a secret from stdin: `echo X | docker login --password-stdin`, `<<< X`.
STDIN_SECRET = frozenset(("--password-stdin", "--with-token", "--stdin", "--token-stdin"))
REDIRECTS = frozenset(("<", "<<", "<<<", "0<"))


def _mask_value(value: str, how: str) -> str:
    if how == USERPASS:  # curl's user:password, smbclient's user%password
        user, sep, _ = value.partition(":") if ":" in value else value.partition("%")
        return f"{user}{sep}{MASK}" if sep else MASK
    return MASK


def argv_masks(words: list[str], shell: bool = False) -> dict[int, str]:
    """Which words of an argv list (or shell line) hold a password: index -> its masked form.

    One reader for both: ``shell`` words may carry quotes and separators (``;``, ``|``, ``&&``)
    that start a new command; a list's first word is its command.
    """
    masks: dict[int, str] = {}
    rules: dict[str, str] | None = None
    login = configuring = False
    pending = ""  # how the next word is masked
    start = True
    echoed: list[int] = []  # the words an `echo`/`printf` of this segment prints
    piped: list[int] = []  # ... of the segment piped into this one
    for i, raw in enumerate(words):
        if type(raw) is not str:  # ["-p", 1234]: a number or object given as the value
            if pending:
                masks[i] = MASK
            pending, start = "", False
            continue
        word = raw.strip("'\"") if shell else raw
        if pending:
            if word in REDIRECTS:  # --with-token <<< X
                continue
            if not (pending == FRAGMENT_NEXT and (word.startswith("-") or re.fullmatch(PORT_OR_PATH, word))):
                masks[i] = _mask_value(word, pending)
            pending = ""
            continue
        if shell and raw in SEPARATORS:
            piped = echoed if raw == "|" else []
            rules, login, configuring, start, echoed = None, False, False, True, []
            continue
        if not shell and i == 0 and len(words) == 2 and secret_name(word):
            pending = NEXT  # a (name, value) pair: ["Authorization", "Bearer x"], ["DB_PASSWORD", x]
            continue
        name = word.rpartition("/")[2]
        if name in COMMANDS:
            rules, login, start = COMMANDS[name], False, False
            continue
        if name in LOGIN_TOOLS:
            login, start = True, False
            rules = _LOGIN if name == "login" else None
            continue
        if login and word == "login":
            rules = _LOGIN
            continue
        if start and not word.startswith("-"):
            start = False
            if name in ("echo", "printf"):
                echoed = [-1]  # marks the segment; its words follow
            elif not shell and name not in BENIGN_P and i == 0:
                rules = FRAGMENT
            continue
        if start and not shell and i == 0:
            rules = FRAGMENT  # a fragment: ["-p", "secret"]
        start = False
        if echoed:
            echoed.append(i)
            continue
        if word in STDIN_SECRET:
            masks.update((j, MASK) for j in piped if j >= 0)
            pending = NEXT if i + 2 < len(words) and words[i + 1] in REDIRECTS else ""
            continue
        if secret_name(word, True):
            pending = NEXT
            continue
        if word in ("config", "configure", "set"):
            configuring = True  # git config user.password X, npm config set //r/:_authToken X
            continue
        if (
            configuring
            and not word.startswith("-")
            and secret_name(word.rpartition(":")[2].rpartition("/")[2])
        ):
            pending = NEXT
            continue
        if not rules or not word.startswith("-"):
            continue
        how = rules.get(word)
        if how is not None:
            if how != GLUED:
                pending = FRAGMENT_NEXT if rules is FRAGMENT else how
            continue
        option, eq, value = word.partition("=")
        how = rules.get(option) if eq else None
        if how is None and not word.startswith("--"):
            option, value = word[:2], word[2:]
            how = rules.get(option)
            last = rules.get("-" + word[-1])
            if how is None and last is not None and last != GLUED and len(word) > 2:
                pending = last  # combined short options: curl -su user:pass
                continue
        if how is not None and how != NEXT and value:
            masks[i] = option + eq + _mask_value(value.strip("'\""), how)
    return masks


def _mask_command_lines(text: str, start: int) -> str:
    """``text`` with the password words of its command lines (from ``start`` on) masked."""
    spans = [(m.start(), m.end()) for m in re.compile(SHELL_WORD).finditer(text, start)]
    masks = argv_masks([text[a:b] for a, b in spans], shell=True)
    if not masks:
        return text
    parts, last = [], 0
    for index in sorted(masks):
        a, b = spans[index]
        parts += (text[last:a], masks[index])
        last = b
    parts.append(text[last:])
    return "".join(parts)


def redact_text(text: str) -> str:
    """``text`` with every recognised secret replaced by ``[REDACTED]``, truncated."""
    total = len(text)
    if total <= 64 and _plain(text):
        return text
    text = text[:SCAN]
    option = OPTION.search(text)
    if option is not None:
        text = _mask_command_lines(text, text.rfind("\n", 0, option.start()) + 1)
    text = _scan(text)
    if total <= MAX_STRING and len(text) <= MAX_STRING:
        return text
    return text[:MAX_STRING] + f"…[+{total - min(total, MAX_STRING)} chars]"


def _key(key: str) -> str:
    clean = redact_text(key[:MAX_KEY])
    if len(key) > MAX_KEY or len(clean) > MAX_KEY:
        return clean[: MAX_KEY - 1] + "…"
    return clean


def _argv_like(word: str) -> bool:
    """Whether a list holding ``word`` needs the argv reader: an option or a secret's name."""
    return word[:1] == "-" or word[-16:].lower().endswith(ENDS)


NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def redact(value: object) -> object:
    """A copy of a JSON value with secrets masked, in one walk over keys, values and argv lists.

    A key naming a secret masks its whole value (a string, number, list or object; ``null``,
    booleans and empty values are kept); keys are scanned like strings (a masked key that
    collides with another gets a ``#2`` suffix, so no entry is lost); a list is read as argv;
    NaN and infinities become strings (the store writes strict JSON).
    """
    kind = type(value)
    if kind is str:
        return redact_text(value)
    if kind is dict:
        out: dict = {}
        # {"name": "DB_PASSWORD", "value": "x"} (Kubernetes, ECS, GitHub Actions env lists)
        named = value.get("name", value.get("Name", value.get("key", value.get("Key"))))  # type: ignore[attr-defined]
        hidden = ("value", "Value") if type(named) is str and secret_name(named[:MAX_KEY]) else ()
        for key, item in value.items():  # type: ignore[attr-defined]
            name = key if type(key) is str else str(key)
            clean = _key(name)
            if clean in out:
                n = 2
                while f"{clean}#{n}" in out:
                    n += 1
                clean = f"{clean}#{n}"
            if (
                item is not None
                and type(item) is not bool
                and item not in ("", [], {})
                and (name in hidden or secret_name(name[:MAX_KEY]))
            ):
                out[clean] = MASK
            else:
                out[clean] = redact(item)
        return out
    if kind is list:
        masks = argv_masks(value) if any(type(w) is str and _argv_like(w) for w in value) else {}  # type: ignore[arg-type]
        return [masks[i] if i in masks else redact(item) for i, item in enumerate(value)]  # type: ignore[arg-type]
    if kind is float and value - value != 0.0:  # type: ignore[operator]
        return NON_FINITE[repr(value)]
    return value
