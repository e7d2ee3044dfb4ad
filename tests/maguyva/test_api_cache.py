"""What a ``Maguyva`` remembers of its index (``IndexCache``) is dropped whole when the index is refreshed:
nothing read from the old index (the issue-template prompts used to survive) answers the next question."""

from __future__ import annotations

from conftest import git

from maguyva.api import IndexCache
from tests.maguyva_project import open_indexed

TEMPLATE = "---\nname: Bug report\n---\n\n**Describe the bug**\nA clear and concise description of what the bug is.\n"
PROMPT = "a clear and concise description of what the bug is."


def test_a_refresh_replaces_everything_remembered_of_the_old_index(tmp_path):
    root = tmp_path / "repo"
    api = open_indexed(root, {"pkg/__init__.py": "", "pkg/shop.py": "def checkout(cart):\n    return cart\n"})
    try:
        assert PROMPT not in api._issue_prompts()  # read once, remembered
        api.intelligent_search("where is the checkout of a cart handled in the shop package")
        # a ranked question filled it
        assert api.cache.index is not None
        assert api.cache.central
        (root / ".github" / "ISSUE_TEMPLATE").mkdir(parents=True)
        (root / ".github" / "ISSUE_TEMPLATE" / "bug.md").write_text(TEMPLATE)
        git(root, "add", "-A")
        git(root, "commit", "-qm", "chore: an issue template")
        assert api.refresh_index().added == 1
        assert api.cache == IndexCache()  # nothing of the old index is left
        assert PROMPT in api._issue_prompts()  # the new template's prompt, read from the refreshed index
    finally:
        api.close()
