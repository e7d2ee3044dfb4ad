"""Localisation: real questions (code fences, tracebacks, module dependencies, "how does X work")
answered by the file ranker on small repositories built here (issue 13's misfires)."""

from __future__ import annotations

import json

import pytest
from clirun import run_cli

from maguyva.api import Maguyva
from maguyva.retrieve.intent import classify
from maguyva.retrieve.query import parse
from tests.maguyva_project import open_indexed

FILES = {
    "shop/__init__.py": "",
    "shop/registry.py": '''"""Where blueprints are registered on the application."""


class Blueprint:
    """A group of routes registered on an application."""

    def register(self, app, options):
        """Record this blueprint's routes on ``app``."""
        app.blueprints[self.name] = self
        for rule in self.deferred:
            rule(app)


def register_blueprint(app, blueprint, **options):
    blueprint.register(app, options)
''',
    "shop/pricing.py": '''from shop.globals import current_rate


def apply_discount(total, code):
    """Reduce the total by the discount code's rate."""
    rate = current_rate(code)
    if rate is None:
        raise KeyError(code)
    return total * (1 - rate)


def parse_code(text):
    return text.strip().upper()
''',
    "shop/globals.py": """RATES = {"SPRING": 0.1}


def current_rate(code):
    return RATES.get(code)
""",
    "shop/checkout.py": """from shop.pricing import apply_discount, parse_code


def checkout(cart, raw_code):
    code = parse_code(raw_code)
    return apply_discount(sum(cart), code)
""",
    "shop/util.py": "\n".join(f"def helper_{i}(x):\n    return x + {i}\n" for i in range(12)),
    "tests/test_registry.py": "\n".join(
        f"def test_blueprint_registration_{i}():\n    # blueprint registration works: register blueprint\n"
        f"    register_blueprint(app, Blueprint())  # blueprint registration\n"
        for i in range(8)
    ),
    "docs/blueprints.md": "# Blueprint registration\n\n" + "How blueprint registration works: register a "
    "blueprint, and blueprint registration records routes.\n" * 12,
    "CHANGELOG.md": "# Changes\n\n- blueprint registration: register blueprint faster\n" * 6,
    ".claude/agents/helper.md": "blueprint registration blueprint registration register blueprint\n" * 6,
}


@pytest.fixture(scope="module")
def api(tmp_path_factory) -> Maguyva:
    opened = open_indexed(tmp_path_factory.mktemp("loc") / "repo", FILES)
    yield opened
    opened.close()


def paths(answer: dict) -> list[str]:
    return [r["path"] for r in answer["results"]]


def test_a_question_with_a_code_fence_is_a_task_ranked_by_the_names_the_code_uses(api):
    query = (
        "Discount is wrong for lowercase codes\n\nWhen I run this the `total` is not reduced:\n\n```python\n"
        "from shop.checkout import checkout\nprint(checkout([10, 20], 'spring'))\n```\n\n"
        "I expected `27.0` but got `30`. The code should be normalised before `apply_discount` looks it up."
    )
    assert classify(parse(query)).name == "understand_code"
    assert classify(parse(query)).reason == "task text"
    parsed = parse(query)
    assert "checkout" in parsed.code_calls
    assert "shop.checkout.checkout" in parsed.code_imports
    answer = api.intelligent_search(query)
    assert answer["fusion_strategy"] == "ranked"
    assert set(paths(answer)[:2]) <= {"shop/checkout.py", "shop/pricing.py"}
    assert answer["results"][0]["kind"] in ("function", "method")


def test_a_traceback_feeds_its_frames_and_the_innermost_frame_file_ranks_first(api):
    query = """Checkout crashes on an unknown code

Traceback (most recent call last):
  File "/home/me/project/run.py", line 3, in <module>
    checkout([1], "nope")
  File "/home/me/venv/lib/site-packages/shop/checkout.py", line 6, in checkout
    return apply_discount(sum(cart), code)
  File "/home/me/venv/lib/site-packages/shop/pricing.py", line 8, in apply_discount
    raise KeyError(code)
KeyError: 'NOPE'
"""
    parsed = parse(query)
    assert [f.function for f in parsed.frames] == ["<module>", "checkout", "apply_discount"]
    assert parsed.exception == "KeyError"
    assert parsed.exception_message == "'NOPE'"
    assert classify(parse(query)).name != "exact_match"
    answer = api.intelligent_search(query)
    assert paths(answer)[0] == "shop/pricing.py"
    assert answer["results"][0]["symbol"].endswith("apply_discount")
    assert "frames" in answer["results"][0]["signals"]
    assert "shop/checkout.py" in paths(answer)[:3]


@pytest.mark.parametrize("target", ["shop.globals", "shop/globals.py", "`shop.globals`"])
def test_what_depends_on_a_module_resolves_it_like_code_deps(api, target):
    answer = api.intelligent_search(f"what depends on {target}")
    assert answer["intent"] == "impact_analysis"
    assert "shop/pricing.py" in paths(answer)
    assert answer["results"], answer["notes"]


def test_how_does_x_work_finds_the_code_when_tests_and_docs_say_x_more_often(api):
    answer = api.intelligent_search("how does blueprint registration work")
    assert paths(answer)[0] == "shop/registry.py"
    ranked = paths(answer)
    for noisy in ("tests/test_registry.py", "docs/blueprints.md", "CHANGELOG.md", ".claude/agents/helper.md"):
        if noisy in ranked:
            assert ranked.index(noisy) > 0
    demoted = {r["path"]: r.get("demoted_as") for r in answer["results"] if r["demoted"]}
    assert demoted.get(".claude/agents/helper.md", "rendered") == "rendered"


def test_asking_for_tests_lifts_their_demotion(api):
    answer = api.intelligent_search("tests for blueprint registration")
    assert paths(answer)[0] == "tests/test_registry.py"


def test_limit_counts_files_and_extra_places_come_under_more(api):
    answer = api.intelligent_search("how does blueprint registration work register_blueprint", limit=3)
    assert len(answer["results"]) == 3
    assert len(set(paths(answer))) == 3
    first = answer["results"][0]
    assert first["path"] == "shop/registry.py"
    assert {m["symbol"] for m in first["more"]} | {first["symbol"]} >= {
        "shop.registry.register_blueprint"
    } or first["more"]


def test_path_prefix_is_applied_inside_the_ranker(api):
    answer = api.intelligent_search("how is the discount code rate applied", path_prefix="shop/c", limit=1)
    assert paths(answer) == ["shop/checkout.py"]


def test_an_empty_routed_modality_falls_back_with_a_note_instead_of_an_empty_answer(api):
    answer = api.intelligent_search("who calls frobnicate_widgets in the pricing discount code")
    assert answer["results"], "never silently empty"
    assert any("fell back" in note for note in answer["notes"])
    assert "shop/pricing.py" in paths(answer)


def test_nothing_at_all_still_explains_itself(api):
    answer = api.intelligent_search("zzqx wvvut", path_prefix="nowhere/")
    assert answer["results"] == []
    assert any("nothing matched" in n for n in answer["notes"])


def test_the_cli_gives_the_mcp_answer(api):
    query = "how does blueprint registration work"
    out = run_cli("code", "search", query, "--repo", str(api.root), cwd=api.root)
    assert out.returncode == 0, out.stderr
    assert [r["citation"] for r in json.loads(out.stdout)["results"]] == [
        r["citation"] for r in api.intelligent_search(query)["results"]
    ]


def test_the_ranker_cache_is_reused_and_rebuilt_when_files_change(api, tmp_path):
    from maguyva.retrieve.cache import cache_path, load_file_index

    place = cache_path(api.store_location)
    api.intelligent_search("blueprint registration")
    assert place is not None
    assert place.is_file()
    again = load_file_index(api.store, api.store_location)
    assert again.paths == api._file_index().paths
    place.write_bytes(b"not a numpy file")
    rebuilt = load_file_index(api.store, api.store_location)
    assert rebuilt.paths == again.paths


def test_short_quoted_literal_keeps_the_fast_path_and_long_quotes_do_not():
    assert classify(parse('"no such table"')).name == "exact_match"
    assert (
        classify(parse("why does `Blueprint.register` skip deferred rules when the app is reloaded")).name
        != "exact_match"
    )
    fence = "Bug\n```\nx = `a`\n```\nand then `b` fails"
    assert parse(fence).literals == ("b",)


def test_gather_task_context_packs_the_same_ranking_for_a_task_text(api):
    task = (
        "Discount codes in lower case are not applied.\nThe checkout passes the raw code to "
        "`apply_discount`, which looks the rate up with `current_rate`; normalise it first."
    )
    context = api.gather_task_context(task, token_budget=2000)
    ranked = api.intelligent_search(task, limit=25, preset="thorough")
    assert context["snippets"][0]["citation"] == ranked["results"][0]["citation"]
    assert context["tokens_used"] <= 2000
    assert {s["citation"].split(":")[0] for s in context["snippets"]} >= {
        "shop/pricing.py",
        "shop/checkout.py",
    }


def test_parse_reads_identifiers_paths_modules_and_pytest_frames():
    parsed = parse(
        "`Blueprint.register` in src/flask/blueprints.py breaks flask.globals for HTTPServer and "
        "parse_args\n\nsrc/_pytest/python.py:123: in collect\nE   AssertionError: boom"
    )
    assert {"Blueprint.register", "HTTPServer", "parse_args"} <= set(parsed.identifiers)
    assert "src/flask/blueprints.py" in parsed.paths
    assert "flask.globals" in parsed.modules
    assert [(f.file, f.line, f.function) for f in parsed.frames] == [
        ("src/_pytest/python.py", 123, "collect")
    ]
    assert parsed.exception == "AssertionError"
    assert parsed.is_task
    assert {"register", "Blueprint", "collect"} <= set(parsed.names)
