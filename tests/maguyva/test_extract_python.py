"""Python extraction: definitions with kinds, qualified names, signatures and docs; references; chunks."""

from __future__ import annotations

import textwrap

from maguyva.index.extract import extract_source
from maguyva.models import FACT_KINDS, Reference

SOURCE = textwrap.dedent('''\
    """Accounts."""
    import os.path
    from .models import Base, helper as h
    from . import util

    LIMIT = 10
    counter = 0


    class Account(Base):
        """An account.

        Second paragraph.
        """
        kind = "user"

        @property
        def name(self) -> str:
            return self.format(os.path.join("a", "b"))

        def format(self, value: Value) -> str:
            def inner():
                return h(value)
            return inner()


    def open_account(owner):
        return Account(owner)
    ''').encode()


def _extract():
    return extract_source("bank/accounts.py", "python", SOURCE)


def test_definitions_carry_kind_qualified_name_span_signature_and_doc():
    symbols = {s.qualified_name: s for s in _extract().symbols}
    assert sorted((s.kind, s.qualified_name, s.line, s.end_line) for s in symbols.values()) == [
        ("class", "bank.accounts.Account", 10, 24),
        ("constant", "bank.accounts.LIMIT", 6, 6),
        ("field", "bank.accounts.Account.kind", 15, 15),
        ("function", "bank.accounts.Account.format.inner", 22, 23),
        ("function", "bank.accounts.open_account", 27, 28),
        ("method", "bank.accounts.Account.format", 21, 24),
        ("method", "bank.accounts.Account.name", 18, 19),
        ("variable", "bank.accounts.counter", 7, 7),
    ]
    account = symbols["bank.accounts.Account"]
    assert (account.signature, account.doc, account.parent) == ("class Account(Base):", "An account.", None)
    method = symbols["bank.accounts.Account.format"]
    assert (method.signature, method.parent) == (
        "def format(self, value: Value) -> str:",
        "bank.accounts.Account",
    )


def test_references_carry_kind_qualifier_scope_and_import_parts():
    refs = _extract().references
    assert [r for r in refs if r.kind == "import"] == [
        Reference("bank/accounts.py", "os.path", "import", 2, 0, "", None, "os.path"),
        Reference("bank/accounts.py", "Base", "import", 3, 0, "", None, ".models"),
        Reference("bank/accounts.py", "helper", "import", 3, 0, "", None, ".models", "h"),
        Reference("bank/accounts.py", "util", "import", 4, 0, "", None, "."),
    ]
    assert [
        (r.kind, r.name, r.qualifier, r.scope, r.line)
        for r in refs
        if r.kind != "import" and r.kind not in FACT_KINDS
    ] == [
        ("inherit", "Base", "", "bank.accounts.Account", 10),
        ("call", "property", "", "bank.accounts.Account", 17),
        ("type", "str", "", "bank.accounts.Account.name", 18),
        ("call", "format", "self", "bank.accounts.Account.name", 19),
        ("call", "join", "os.path", "bank.accounts.Account.name", 19),
        ("type", "Value", "", "bank.accounts.Account.format", 21),
        ("type", "str", "", "bank.accounts.Account.format", 21),
        ("call", "h", "", "bank.accounts.Account.format.inner", 23),
        ("call", "inner", "", "bank.accounts.Account.format", 24),
        ("call", "Account", "", "bank.accounts.open_account", 28),
    ]


def test_chunks_partition_the_file_at_definition_boundaries():
    chunks = _extract().chunks
    assert [(c.start_line, c.end_line, c.symbol, c.kind) for c in chunks] == [
        (1, 9, None, "text"),
        (10, 17, "bank.accounts.Account", "symbol"),
        (18, 20, "bank.accounts.Account.name", "symbol"),
        (21, 21, "bank.accounts.Account.format", "symbol"),
        (22, 26, "bank.accounts.Account.format.inner", "symbol"),
        (27, 28, "bank.accounts.open_account", "symbol"),
    ]


def test_package_init_and_src_layout_give_the_import_name_as_module_prefix():
    init = extract_source("src/pkg/__init__.py", "python", b"def f():\n    pass\n")
    assert [s.qualified_name for s in init.symbols] == ["pkg.f"]


def test_a_syntax_error_is_reported_with_its_location_and_the_rest_is_still_extracted():
    broken = extract_source("b.py", "python", b"def ok():\n    pass\n\ndef broken(:\n    pass\n")
    assert [s.name for s in broken.symbols][:1] == ["ok"]
    assert broken.errors
    assert broken.errors[0].startswith("b.py:4:")
