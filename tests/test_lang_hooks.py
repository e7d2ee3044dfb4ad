"""Per-language hooks beyond what the quality fixtures exercise: module paths, import aliases,
and Ruby's bare-identifier rule, run through the real extraction pipeline on temp directories."""

from __future__ import annotations

from pathlib import Path

import pytest

from maguyva.index.lang import c, csharp, go, kotlin, php, rust
from maguyva.index.pipeline import extract_tree


@pytest.mark.parametrize(
    ("module", "alias"),
    [
        ("example.com/app/util", "util"),
        ("gopkg.in/yaml.v3", "yaml"),
        ("github.com/acme/kit/v2", "kit"),
        ("fmt", "fmt"),
    ],
)
def test_go_import_binds_the_package_name(module, alias):
    assert go.import_alias(module) == alias


def test_go_import_resolves_by_the_longest_directory_suffix_and_skips_tests():
    known = {"internal/util/a_test.go", "internal/util/b.go", "internal/util/c.go", "util/z.go"}
    assert go.resolve_import("example.com/app/internal/util", "main.go", known) == "internal/util/b.go"
    assert go.resolve_import("example.com/app/missing", "main.go", known) is None


@pytest.mark.parametrize(
    ("module", "from_path", "expected"),
    [
        ("crate::store", "src/service/lend.rs", "src/store.rs"),
        ("super::models", "src/service/lend.rs", "src/service/models/mod.rs"),
        ("self::inner", "src/service/mod.rs", "src/service/inner.rs"),
        ("store", "src/main.rs", "src/store.rs"),
        ("crate", "src/store.rs", "src/main.rs"),
        ("std::collections", "src/main.rs", None),
    ],
)
def test_rust_module_paths_resolve_like_the_compiler(module, from_path, expected):
    known = {
        "src/main.rs",
        "src/store.rs",
        "src/service/mod.rs",
        "src/service/lend.rs",
        "src/service/inner.rs",
        "src/service/models/mod.rs",
    }
    assert rust.resolve_import(module, from_path, known) == expected


def test_c_include_falls_back_to_a_unique_repository_header():
    known = {"include/acme/list.h", "src/list.c", "vendor/a/util.h", "vendor/b/util.h"}
    assert c.resolve_import("list.h", "src/list.c", known) == "include/acme/list.h"
    assert c.resolve_import("util.h", "src/list.c", known) is None  # two candidates: not guessed


def test_namespace_imports_follow_folder_conventions():
    orders = {"Orders/Order.cs", "Orders/Cart.cs"}
    assert csharp.resolve_import("Acme.Shop.Orders", "Program.cs", orders) == "Orders/Cart.cs"
    cart = "src/Orders/Cart.php"
    assert php.resolve_import("Acme\\Orders\\Cart", "index.php", {cart}) == cart
    known = {"src/main/kotlin/acme/util/Text.kt"}
    assert kotlin.resolve_import("acme.util.slugify", "src/main/kotlin/acme/App.kt", known) == known.pop()


def _calls(root: Path) -> set[tuple[str, int, str | None]]:
    _extractions, edges = extract_tree(root)
    return {(e.src_path, e.src_line, e.dst_symbol) for e in edges if e.kind == "calls" and e.dst_path}


def test_ruby_bare_identifier_is_a_call_unless_it_is_a_local(tmp_path):
    (tmp_path / "shop.rb").write_text(
        "class Shop\n"
        "  def total\n"
        "    0\n"
        "  end\n"
        "\n"
        "  def report(total)\n"  # the parameter shadows the method
        "    total\n"
        "  end\n"
        "\n"
        "  def summary\n"
        "    total\n"  # a call of Shop#total
        "  end\n"
        "end\n",
        encoding="utf-8",
    )
    assert _calls(tmp_path) == {("shop.rb", 11, "shop.Shop.total")}


def test_an_external_import_alias_never_resolves_to_a_same_named_repo_function(tmp_path):
    (tmp_path / "main.go").write_text(
        'package main\n\nimport "errors"\n\nfunc New() error {\n\treturn errors.New("x")\n}\n',
        encoding="utf-8",
    )
    assert _calls(tmp_path) == set()
