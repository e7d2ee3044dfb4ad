"""Secrets never reach the store: masked by key name and by pattern inside strings."""

from __future__ import annotations

from orkestra.telemetry.redact import MASK, MAX_STRING, redact, redact_text


def test_known_secret_shapes_are_masked_in_text():
    cases = {
        'curl -H "Authorization: Bearer eyJhbGciOi.abc" https://api.example.com': f'curl -H "Authorization: Bearer {MASK}" https://api.example.com',
        "git push https://deploy:s3cr3t@github.com/acme/shop.git": f"git push https://deploy:{MASK}@github.com/acme/shop.git",
        "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz": f"export OPENAI_API_KEY={MASK}",
        'DB_PASSWORD="two words"\nDEBUG=1': f'DB_PASSWORD="{MASK}"\nDEBUG=1',
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": f"aws_secret_access_key = {MASK}",
        "key id AKIAIOSFODNN7EXAMPLE": f"key id {MASK}",
        "mysql -u root --password hunter2 shop": f"mysql -u root --password {MASK} shop",
        "token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 used": f"token {MASK} used",
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U": f"jwt {MASK}",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nafter": f"{MASK}\nafter",
    }
    assert {text: redact_text(text) for text in cases} == cases


def test_ordinary_text_is_left_alone():
    text = "def tokenize(author, token_count): return password_strength(x)  # see api.py:12"
    assert redact_text(text) == text


def test_blobs_are_masked_by_key_name_recursively_and_keep_their_shape():
    blob = {
        "url": "https://x",
        "headers": {"Authorization": "Basic dXNlcjpwYXNz", "Accept": "json"},
        "api_key": "abc",
        "token_count": 12,
        "args": ["--token", "t0ps3cret"],
        "author": "bob",
    }
    assert redact(blob) == {
        "url": "https://x",
        "headers": {"Authorization": MASK, "Accept": "json"},
        "api_key": MASK,
        "token_count": 12,
        "args": ["--token", MASK],
        "author": "bob",
    }


def test_long_strings_are_truncated_with_their_size():
    text = "x" * (MAX_STRING + 500)
    assert redact_text(text) == "x" * MAX_STRING + "…[+500 chars]"
