"""Secret shapes a hook event can carry, by family: the redaction tests' and bench's shared corpus.

Each ``Shape`` is a value placed in a hook payload's ``tool_input`` and the secrets that must not
survive redaction (the check is textual, on the JSON the store would write). ``BENIGN`` holds
look-alikes whose text must survive. The fake secrets are assembled from pieces so no scanner
mistakes this file for a leak; none is a real credential.
"""

from __future__ import annotations

import math
from collections import namedtuple

Shape = namedtuple("Shape", "name family value secrets issue")  # issue: one of issue #31's 23 shapes


def _rep(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


AWS_ID = "AK" + "IA" + "QWERTYUIOPASDFGH"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzz9Fq2Lm8KeyXy"
GITHUB = "gh" + "p_" + _rep("aB3dE5fG7h", 36)
GITHUB_PAT = "github" + "_pat_" + _rep("11AbCdEf_9", 82)
GITLAB = "gl" + "pat-" + _rep("xY7_zW9-q", 20)
STRIPE = "sk" + "_live_" + _rep("4eC39HqLyjWDarjtT1zdp7dc", 24)
SLACK_BOT = "xo" + "xb-" + "2609144325-5938612384-" + _rep("AbCdEfGhIjKl", 24)
SLACK_HOOK = "https://hooks.slack" + ".com/services/T0AAAAAAA/B0BBBBBBB/" + _rep("XyZ123abc", 24)
NPM = "np" + "m_" + _rep("a1B2c3D4e5", 36)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + _rep("CJDkyYTU1LTg4NGQtN", 80)
AZURE_KEY = _rep("Zm9vYmFyQmF6cXV4", 86) + "=="
OPENAI = "sk" + "-proj-" + _rep("Q1w2E3r4T5y6U7i8", 48)
ANTHROPIC = "sk" + "-ant-api03-" + _rep("Zx9Cv8Bn7M", 60)
JWT = "ey" + "JhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
GOOGLE = "AI" + "za" + _rep("SyA1b2C3d4E5f6G7h8", 35)
SENDGRID = "SG." + _rep("abcDEF123_", 22) + "." + _rep("ghiJKL456-", 43)
TWILIO = "S" + "K" + _rep("0123456789abcdef", 32)
TELEGRAM = "123456789:" + _rep("AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", 35)
HF = "h" + "f_" + _rep("AbCdEfGhIjKlMnOp", 34)
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7pemKeyBody\n"
    "Zm9vYmFyYmF6cXV4\n-----END RSA PRIVATE KEY-----"
)
OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAopensshBody\n-----END OPENSSH PRIVATE KEY-----"
)
BASIC = "Ym9iOmh1bnRlcjItYmFzaWM="  # bob:hunter2-basic

SHAPES: tuple[Shape, ...] = (
    # --- a secret-named key holding something other than a string -----------------------------
    Shape(
        "key holds list", "secret-named keys", {"password": ["pw-list-one", "pw-list-two"]}, ("pw-list",), 1
    ),
    Shape(
        "key holds dict",
        "secret-named keys",
        {"credentials": {"user": "bob", "pass": "pw-dict-1"}},
        ("pw-dict",),
        1,
    ),
    Shape("key holds float", "secret-named keys", {"api_key": 31415.9265}, ("31415",), 1),
    Shape("key holds int", "secret-named keys", {"pin_secret": 987654}, ("987654",), 0),
    Shape("key holds string", "secret-named keys", {"client_secret": "cs-string-1"}, ("cs-string",), 0),
    Shape(
        "private_key_id",
        "secret-named keys",
        {"private_key_id": "4f1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3"},
        ("4f1b2c3d4e",),
        1,
    ),
    Shape("plural key", "secret-named keys", {"passwords": ["pw-plural-1"]}, ("pw-plural",), 0),
    Shape(
        "human-labelled key",
        "secret-named keys",
        {"API Key": "pw-label-1", "Client Secret": "pw-label-2"},
        ("pw-label",),
        0,
    ),
    Shape(
        "name/value env list",
        "secret-named keys",
        {"env": [{"name": "DB_PASSWORD", "value": "pw-k8s-1"}]},
        ("pw-k8s",),
        0,
    ),
    Shape(
        "header pair list",
        "secret-named keys",
        {"headers": [["Authorization", "Bearer pw-pair-1"]]},
        ("pw-pair",),
        0,
    ),
    Shape("user/pass pair", "secret-named keys", {"user": "bob", "pass": "pw-pass-1"}, ("pw-pass",), 0),
    Shape(
        "numbered and dotted keys",
        "secret-named keys",
        {"password2": "pw-num-1", "api.key": "pw-num-2"},
        ("pw-num",),
        0,
    ),
    # --- secrets as mapping keys ---------------------------------------------------------------
    Shape("token as key", "secrets as keys", {"tokens": {GITHUB: "ci"}}, (GITHUB[:20],), 1),
    Shape(
        "assignment as key", "secrets as keys", {"env": {"DB_PASSWORD=pw-in-key-1": True}}, ("pw-in-key",), 1
    ),
    # --- command lines ----------------------------------------------------------------------
    Shape(
        "curl -u user:pass",
        "command lines",
        {"command": "curl -u deploy:pw-curl-1 https://api.example.com"},
        ("pw-curl",),
        1,
    ),
    Shape(
        "curl --user=",
        "command lines",
        {"command": "curl --user=bob:pw-curl-2 -X POST https://x.example"},
        ("pw-curl",),
        0,
    ),
    Shape(
        "mysql -pPASS",
        "command lines",
        {"command": "mysql -u root -ppw-mysql-1 shop < dump.sql"},
        ("pw-mysql",),
        1,
    ),
    Shape(
        "mysqldump -p'PASS'",
        "command lines",
        {"command": "sudo mysqldump -h db -p'pw-mysql-2' shop > x"},
        ("pw-mysql",),
        0,
    ),
    Shape(
        "sshpass -p",
        "command lines",
        {"command": "sshpass -p pw-sshpass-1 ssh deploy@host uptime"},
        ("pw-sshpass",),
        1,
    ),
    Shape(
        "docker login -p",
        "command lines",
        {"command": "docker login -u bob -p pw-docker-1 registry.example"},
        ("pw-docker",),
        1,
    ),
    Shape(
        "podman login --password",
        "command lines",
        {"command": "podman login --password pw-podman-1 quay.io"},
        ("pw-podman",),
        0,
    ),
    Shape(
        "--password=",
        "command lines",
        {"command": "wget --http-password=pw-wget-1 https://x"},
        ("pw-wget",),
        0,
    ),
    Shape(
        "--password x",
        "command lines",
        {"command": "mysql -u root --password pw-flag-1 shop"},
        ("pw-flag",),
        0,
    ),
    Shape("PGPASSWORD=", "command lines", {"command": "PGPASSWORD=pw-pg-1 psql -h db -U app"}, ("pw-pg",), 0),
    Shape(
        "redis-cli -a",
        "command lines",
        {"command": "redis-cli -h cache -a pw-redis-1 ping"},
        ("pw-redis",),
        0,
    ),
    Shape(
        "openssl pass:",
        "command lines",
        {"command": "openssl rsa -in k.pem -passin pass:pw-openssl-1"},
        ("pw-openssl",),
        0,
    ),
    Shape(
        "netrc line",
        "command lines",
        {"content": "machine api.example.com login bob password pw-netrc-1"},
        ("pw-netrc",),
        0,
    ),
    Shape(
        "curl -su (combined options)",
        "command lines",
        {"command": "curl -su bob:pw-curl-3 https://x"},
        ("pw-curl",),
        0,
    ),
    Shape(
        "echo | --password-stdin",
        "command lines",
        {"command": "echo pw-stdin-1 | docker login -u bob --password-stdin"},
        ("pw-stdin",),
        0,
    ),
    Shape(
        "--with-token <<<",
        "command lines",
        {"command": "gh auth login --with-token <<< pw-stdin-2"},
        ("pw-stdin",),
        0,
    ),
    Shape(
        "npm config set _authToken",
        "command lines",
        {"command": "npm config set //registry.npmjs.org/:_authToken pw-npmrc-1"},
        ("pw-npmrc",),
        0,
    ),
    Shape(
        "git config user.password",
        "command lines",
        {"command": "git config --global user.password pw-gitcfg-1"},
        ("pw-gitcfg",),
        0,
    ),
    Shape(
        "smbclient -U user%pass",
        "command lines",
        {"command": "smbclient -U bob%pw-smb-1 //host/share"},
        ("pw-smb",),
        0,
    ),
    Shape(
        "SSHPASS= with sshpass -e",
        "command lines",
        {"command": "SSHPASS=pw-sshenv-1 sshpass -e ssh h"},
        ("pw-sshenv",),
        0,
    ),
    Shape(
        "curl --cookie", "command lines", {"command": "curl --cookie 'sid=pw-ck-2' https://x"}, ("pw-ck",), 0
    ),
    Shape(
        "PowerShell ConvertTo-SecureString",
        "command lines",
        {"command": '$pw = ConvertTo-SecureString "pw-ps-1" -AsPlainText -Force'},
        ("pw-ps",),
        0,
    ),
    Shape(
        "token as a clone URL's user",
        "command lines",
        {"command": "git clone https://" + _rep("4f5e6d7c8b9a0f1e", 40) + "@github.com/acme/x.git"},
        (_rep("4f5e6d7c8b9a0f1e", 40),),
        0,
    ),
    # --- argv lists ----------------------------------------------------------------------------
    Shape("[-p, secret]", "argv lists", {"args": ["-p", "pw-argv-1"]}, ("pw-argv",), 1),
    Shape(
        "[mysql, -pSECRET]", "argv lists", {"argv": ["mysql", "-u", "root", "-ppw-argv-2"]}, ("pw-argv",), 0
    ),
    Shape(
        "[sshpass, -p, secret]",
        "argv lists",
        {"argv": ["sshpass", "-p", "pw-argv-3", "ssh", "h"]},
        ("pw-argv",),
        0,
    ),
    Shape(
        "[curl, -u, user:pass]",
        "argv lists",
        {"argv": ["curl", "-u", "bob:pw-argv-4", "https://x"]},
        ("pw-argv",),
        0,
    ),
    Shape("[--token, secret]", "argv lists", {"args": ["--token", "pw-argv-5"]}, ("pw-argv",), 0),
    # --- headers and cookies -------------------------------------------------------------------
    Shape(
        "Cookie: header",
        "headers",
        {"command": "curl -H 'Cookie: session=ck-sess-1; csrftoken=ck-csrf-1' https://x"},
        ("ck-sess", "ck-csrf"),
        1,
    ),
    Shape(
        "Authorization: Basic",
        "headers",
        {"command": f'curl -H "Authorization: Basic {BASIC}" https://x'},
        (BASIC,),
        0,
    ),
    Shape(
        "Authorization: Bearer", "headers", {"text": "Authorization: Bearer tok-bearer-1"}, ("tok-bearer",), 0
    ),
    Shape(
        "AWS SigV4 header",
        "headers",
        {"text": "Authorization: AWS4-HMAC-SHA256 Credential=AKID/x, Signature=sig-aws4-1"},
        ("sig-aws4",),
        0,
    ),
    Shape("cookie key", "headers", {"headers": {"Cookie": "session=ck-key-1"}}, ("ck-key",), 0),
    # --- assignments and JSON inside strings ---------------------------------------------------
    Shape(
        '"password":"x" in a string',
        "inside strings",
        {"body": '{"user":"bob","password":"pw-json-1"}'},
        ("pw-json",),
        1,
    ),
    Shape(
        "escaped JSON in a string",
        "inside strings",
        {"body": '{\\"password\\":\\"pw-json-2\\"}'},
        ("pw-json",),
        0,
    ),
    Shape(
        "Python dict repr", "inside strings", {"text": "{'api_key': 'pw-repr-1', 'x': 1}"}, ("pw-repr",), 0
    ),
    Shape("YAML password:", "inside strings", {"text": "db:\n  password: pw-yaml-1\n"}, ("pw-yaml",), 0),
    Shape(
        ".env assignment", "inside strings", {"text": "STRIPE_SECRET_KEY=pw-env-1\nDEBUG=1"}, ("pw-env",), 0
    ),
    Shape(
        "list under a secret name in text",
        "inside strings",
        {"text": 'not json: {"password": ["pw-tlist-1", "pw-tlist-2"], "token": {"v": "pw-tlist-3"}'},
        ("pw-tlist",),
        0,
    ),
    Shape(
        "XML element",
        "inside strings",
        {"text": "<user>bob</user><password>pw-xml-1</password>"},
        ("pw-xml",),
        0,
    ),
    Shape(
        "Rails secret_key_base",
        "inside strings",
        {"text": "production:\n  secret_key_base: pw-rails-1"},
        ("pw-rails",),
        0,
    ),
    Shape(
        "bare Bearer token",
        "inside strings",
        {"text": "use Bearer pwBearerToken0123456789 for it"},
        ("pwBearerToken",),
        0,
    ),
    Shape(
        "Azure AccountKey",
        "inside strings",
        {"text": f"DefaultEndpointsProtocol=https;AccountName=x;AccountKey={AZURE_KEY};EndpointSuffix=core"},
        (AZURE_KEY[:30],),
        1,
    ),
    Shape(
        "private_key_id in a string",
        "inside strings",
        {"text": '"private_key_id": "8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b"'},
        ("8a7b6c5d4e",),
        0,
    ),
    Shape(
        "basic-auth URL",
        "inside strings",
        {"command": "git clone https://deploy:pw-url-1@git.example.com/x.git"},
        ("pw-url",),
        0,
    ),
    Shape(
        "URL password with @",
        "inside strings",
        {"command": "psql postgres://app:pw-u@rl-2@db:5432/x"},
        ("pw-u", "rl-2"),
        0,
    ),
    # --- vendor token shapes -------------------------------------------------------------------
    Shape("npm token", "vendor tokens", {"text": f"//registry.npmjs.org/:_authToken={NPM}"}, (NPM,), 0),
    Shape("npm token alone", "vendor tokens", {"text": f"publish with {NPM} now"}, (NPM,), 1),
    Shape(
        "PyPI token",
        "vendor tokens",
        {"command": f"twine upload -u __token__ -p {PYPI} dist/*"},
        (PYPI[:40],),
        1,
    ),
    Shape("PyPI token alone", "vendor tokens", {"text": f"token is {PYPI}"}, (PYPI[:40],), 1),
    Shape("Slack webhook", "vendor tokens", {"text": f"post to {SLACK_HOOK}"}, (SLACK_HOOK[-24:],), 1),
    Shape("Slack bot token", "vendor tokens", {"text": f"bot {SLACK_BOT}"}, (SLACK_BOT[-24:],), 0),
    Shape("AWS access key id", "vendor tokens", {"text": f"key id {AWS_ID}"}, (AWS_ID,), 0),
    Shape(
        "AWS secret key", "vendor tokens", {"text": f"aws_secret_access_key = {AWS_SECRET}"}, (AWS_SECRET,), 0
    ),
    Shape("GitHub token", "vendor tokens", {"text": f"use {GITHUB} here"}, (GITHUB,), 0),
    Shape("GitHub fine-grained PAT", "vendor tokens", {"text": f"pat {GITHUB_PAT}"}, (GITHUB_PAT[:30],), 0),
    Shape("GitLab token", "vendor tokens", {"text": f"glab auth {GITLAB}"}, (GITLAB,), 0),
    Shape("Stripe live key", "vendor tokens", {"text": f"stripe {STRIPE}"}, (STRIPE,), 0),
    Shape("OpenAI key", "vendor tokens", {"text": f"key {OPENAI}"}, (OPENAI,), 0),
    Shape("Anthropic key", "vendor tokens", {"text": f"key {ANTHROPIC}"}, (ANTHROPIC,), 0),
    Shape("Google API key", "vendor tokens", {"text": f"maps {GOOGLE}"}, (GOOGLE,), 0),
    Shape("SendGrid key", "vendor tokens", {"text": f"mail {SENDGRID}"}, (SENDGRID,), 0),
    Shape("Twilio key", "vendor tokens", {"text": f"sms {TWILIO}"}, (TWILIO,), 0),
    Shape("Telegram bot token", "vendor tokens", {"text": f"bot {TELEGRAM}"}, (TELEGRAM,), 0),
    Shape("Hugging Face token", "vendor tokens", {"text": f"hub {HF}"}, (HF,), 0),
    Shape(
        "Vault token",
        "vendor tokens",
        {"command": "vault login hv" + "s.CAESIJ" + _rep("q7Wd9Kx2Lp", 24)},
        ("CAESIJ",),
        0,
    ),
    Shape("JWT", "vendor tokens", {"text": f"jwt {JWT}"}, (JWT[-20:],), 0),
    Shape("RSA private key block", "vendor tokens", {"content": PEM}, ("pemKeyBody",), 0),
    Shape("OpenSSH private key block", "vendor tokens", {"content": OPENSSH}, ("opensshBody",), 0),
    # --- numbers JSON cannot hold ------------------------------------------------------------
    Shape("NaN", "non-finite numbers", {"ratio": math.nan}, (), 1),
    Shape("Infinity", "non-finite numbers", {"limits": [math.inf, -math.inf]}, (), 1),
)

# Look-alikes: each string listed must be stored as it is.
Benign = namedtuple("Benign", "name value kept")
BENIGN: tuple[Benign, ...] = (
    Benign(
        "token counts",
        {"usage": {"input_tokens": 1200, "max_tokens": 4096, "token_count": 7}},
        ("1200", "4096"),
    ),
    Benign("mkdir -p", {"command": "mkdir -p src/app && ssh -p 2222 host"}, ("src/app", "2222")),
    Benign("docker run -p", {"command": "docker run -p 8080:80 nginx"}, ("8080:80",)),
    Benign("[ssh, -p, 22]", {"argv": ["ssh", "-p", "22", "host"]}, ("22",)),
    Benign("[mkdir, -p, dir]", {"argv": ["mkdir", "-p", "build/out"]}, ("build/out",)),
    Benign("mysql -p db (prompts)", {"command": "mysql -u root -p shop"}, ("shop",)),
    Benign(
        "--password-stdin",
        {"command": "echo $T | docker login --password-stdin -u bob ghcr.io"},
        ("ghcr.io", "bob"),
    ),
    Benign(
        "prose about passwords",
        {"prompt": "fix the password reset flow and the tokenizer"},
        ("password reset", "tokenizer"),
    ),
    Benign(
        "paths and ids",
        {"cwd": "/home/dev/shop", "session_id": "7f3c2a10-5b1e-4c6e-9d1a-2f4b8e6c0a11"},
        ("/home/dev/shop", "7f3c2a10-5b1e"),
    ),
    Benign(
        "git sha",
        {"text": "git show 3fc1b73e9f0a4b6c8d2e1f3a5b7c9d0e2f4a6b8c"},
        ("3fc1b73e9f0a4b6c8d2e1f3a5b7c9d0e2f4a6b8c",),
    ),
    Benign("PWD", {"text": "PWD=/home/dev/shop OLDPWD=/tmp"}, ("/home/dev/shop", "/tmp")),
    Benign(
        "JSON booleans after secret names",
        {"text": '{"pass": true, "password_set": false, "token": null}'},
        ("true", "false", "null"),
    ),
    Benign(
        "code and prose near secret words",
        {"text": "def f(token: str, no_auth: bool): first pass: ok\nserve --no-auth --host 127.0.0.1"},
        ("token: str", "no_auth: bool", "first pass: ok", "--no-auth --host"),
    ),
    Benign(
        "booleans under secret keys", {"use_token": True, "password": None, "secret": ""}, ("true", "null")
    ),
)

# One line per detect-secrets plugin (and per variant its plugins know), for the test that checks
# every secret detect-secrets finds is also masked by our redaction. Entropy detectors and the
# public-IP detector are left out on purpose (a commit sha, a UUID or an IP is not a credential).
HEX64 = _rep("0123456789abcdef", 64)
DETECT_SECRETS_CORPUS: tuple[str, ...] = (
    f"export AWS_ACCESS_KEY_ID={AWS_ID}",
    f'aws_secret = "{_rep("Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3/", 40)}"',
    "artifactory token AKC" + _rep("p8kLm3NvB7", 70) + " done",
    "artifactory password AP6" + _rep("xXqWe4Rt7Y", 40) + " done",
    f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net",
    "pip install --index-url https://deploy:Pw-Basic-9x@pypi.internal.example/simple pkg",
    f"https://acct-1:{HEX64}@acct-1.cloudant.com",
    f"cloudant_password = '{HEX64}'",
    "discord MT" + _rep("Azk4NzM2NTY0MjM0NTY3OD", 24) + ".GhT5aB." + _rep("q9Wx2Ec4Rv6Tb8Yn0Um1Ik3Ol5Pz", 27),
    f"GITHUB_TOKEN={GITHUB}",
    f"gitlab {GITLAB}",
    "ibm_cloud_iam_api_key = '" + _rep("Xy7_Zw9-Qa3Rb5Sc1Td2Ue4", 44) + "'",
    "secret_access_key = '" + _rep("0a1b2c3d4e5f6a7b8c9d", 48) + "'",
    f"jwt={JWT}",
    'password = "Hunter2Keyword!"',
    "db_pass: 'S3cr3tKeyword'",
    'if db_password == "Zx81Keyword":',
    'private_key = "Pk77Keyword"',
    "mailchimp " + _rep("0a1b2c3d4e5f6a7b8c9d", 32) + "-us12",
    f"//registry.npmjs.org/:_authToken={NPM}",
    "openai sk-" + _rep("AbCdEf12", 20) + "T3BlbkFJ" + _rep("GhIjKl34", 20),
    PEM.replace("\n", " "),
    f"pypi {PYPI}",
    f"sendgrid {SENDGRID}",
    f"slack {SLACK_BOT}",
    f"slack {SLACK_HOOK}",
    "softlayer_api_key = '" + _rep("0a1b2c3d4e5f6a7b8c9d", 64) + "'",
    "https://api.softlayer.com/soap/v3/" + _rep("0a1b2c3d4e5f6a7b8c9d", 64),
    "square sq0csp-" + _rep("AbCdEf0123-_", 43),
    f"stripe {STRIPE}",
    f"telegram {TELEGRAM}",
    f"twilio {TWILIO}",
    "twilio AC" + _rep("0123456789abcdef", 32),
)
