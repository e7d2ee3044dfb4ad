"""A small workspace with real history for the institutional-memory tests (why, stale facts, hook, server).

History (dates pinned to 2026-01-<day>):

1. the shop: ``src/shop/pricing.py``, ``legacy.py``, ``old_name.py``, ``notes.py``
2. ``feat(pricing): discount rules`` — mined into DEC-PR-001 and released in the changelog
3. (the truth GT-SHOP-001 is verified on this day)
4. ``refactor(shop): rename old_name to new_name``
5. ``chore(shop): drop legacy pricing``
6. ``feat(pricing)!: rebates replace discounts`` — pricing.py rewritten, ``apply_discount`` gone
"""

from __future__ import annotations

from pathlib import Path

from conftest import git
from mine_repo import at, commit

PRICING_V1 = '''"""Prices."""


def apply_discount(price: float, percent: float) -> float:
    """Take a percentage off."""
    return round(price * (1 - percent / 100), 2)


def price_with_tax(price: float) -> float:
    return round(price * 1.2, 2)
'''
PRICING_V2 = PRICING_V1.replace("return round(price * 1.2, 2)", "return round(price * 1.25, 2)  # VAT 25")
PRICING_V3 = (
    '"""Prices, rebate edition."""\n\n'
    + "".join(f"REBATE_{n} = {n}\n" for n in range(30))
    + '''

def apply_rebate(price: float, amount: float) -> float:
    """Take a fixed amount off."""
    return max(0.0, price - amount)
'''
)

CONFIG = """version: 1
project: shop
mining:
  domains:
    pricing: {paths: ["src/shop/**"], scopes: [pricing]}
"""
DECISIONS_REGISTRY = """domains:
  pricing: {code: PR, description: How prices are computed.}
  search: {code: SR, description: Search.}
"""
DECISION = """id: DEC-PR-001
title: Prices are rounded to cents at every step
domain: pricing
status: active
created: '2026-01-02'
summary: Every pricing function rounds to two decimals before returning.
agent_guidance:
  do: ["Round with round(x, 2) at the end of each pricing function."]
  avoid: ["Returning unrounded floats from pricing code."]
source_commits: []
files:
- src/shop/old_name.py
- src/shop/legacy.py
- src/shop/pricing.py
"""
OLD_DECISION = """id: DEC-PR-002
title: Prices were integers once
domain: pricing
status: superseded
superseded_by: DEC-PR-001
created: '2026-01-01'
summary: Cents as integers.
files: [src/shop/notes.py]
"""
TRUTHS = """metadata: {title: Shop truths, last_updated: '2026-01-03'}
statements:
  - id: GT-SHOP-001
    status: current
    statement: apply_discount takes a percentage, not an amount.
    evidence: [src/shop/pricing.py::apply_discount, src/shop/legacy.py, src/shop/old_name.py]
    last_verified: '2026-01-03'
    agent_guidance:
      do: [Pass percent in 0-100.]
      avoid: [Passing a fraction like 0.2.]
  - id: GT-SHOP-002
    status: current
    statement: notes.py holds no logic.
    evidence: [src/shop/notes.py]
    last_verified: '2026-01-03'
"""


HISTORY_DECISION = """id: DEC-PR-003
title: VAT is applied inside price_with_tax
domain: pricing
status: active
created: '2026-01-07'
summary: Found in history only (no files listed).
agent_guidance:
  do: ["Change the VAT rate in one place."]
source_commits:
- {{sha: {sha}, message: 'feat(pricing): discount rules', date: '2026-01-02'}}
files: []
"""


def make_memory_repo(repo: Path) -> dict[str, str]:
    """Build the workspace and its history in ``repo`` (an initialised git repository); return the shas."""
    from orkestra.init import init_workspace

    (repo / "orkestra.yaml").write_text(CONFIG)
    init_workspace(repo)
    git(repo, "add", "-A")
    shas = {
        "base": commit(
            repo,
            "feat(shop): first shop",
            {
                "src/shop/pricing.py": PRICING_V1,
                "src/shop/legacy.py": "LEGACY = True\n",
                "src/shop/old_name.py": "NAME = 'old'\n",
                "src/shop/notes.py": "# notes\n",
                "orkestra.yaml": CONFIG,
                "ai_assets/reference/decisions/registry.yaml": DECISIONS_REGISTRY,
                "ai_assets/reference/decisions/records/DEC-PR-001.yaml": DECISION,
                "ai_assets/reference/decisions/records/DEC-PR-002.yaml": OLD_DECISION,
                "ai_assets/reference/ground_truths.yaml": TRUTHS,
            },
            day=1,
        )
    }
    shas["rules"] = commit(repo, "feat(pricing): discount rules", {"src/shop/pricing.py": PRICING_V2}, day=2)
    git(repo, "mv", "src/shop/old_name.py", "src/shop/new_name.py")
    shas["rename"] = commit(repo, "refactor(shop): rename old_name to new_name", day=4)
    git(repo, "rm", "-q", "src/shop/legacy.py")
    shas["drop"] = commit(repo, "chore(shop): drop legacy pricing", day=5)
    shas["rebate"] = commit(
        repo, "feat(pricing)!: rebates replace discounts", {"src/shop/pricing.py": PRICING_V3}, day=6
    )
    shas["history"] = commit(
        repo,
        "docs(pricing): record the VAT decision",
        {"ai_assets/reference/decisions/records/DEC-PR-003.yaml": HISTORY_DECISION.format(sha=shas["rules"])},
        day=7,
    )
    return shas


def mine_rules(repo: Path, sha: str) -> None:
    """Index the history and classify the rules commit: a decision extract and a changelog release."""
    from orkestra.mining.classify import classify_commit
    from orkestra.mining.config import load_mining_paths
    from orkestra.mining.index import sync_index

    paths = load_mining_paths(repo.resolve())
    sync_index(paths)
    classify_commit(paths, sha, decision="DEC-PR-001")
    classify_commit(paths, sha, changelog="changed", summary="Prices include 25 % VAT")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "chore(mine): classify", env=at(8))


def symbol_index(repo: Path, store: Path) -> None:
    """A real Maguyva index of the repository at HEAD."""
    from maguyva.index.pipeline import index_repository

    index_repository(repo, store, full=True, workers=1)
