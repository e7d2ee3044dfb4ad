"""Item 18 of issue 14: malformed vendor skills and vendor roots are located errors, not crashes."""

from __future__ import annotations

import pytest
from ork_workspace import cli, errors, workspace

VENDOR = "vendor/acme-skills/deploy-preview/SKILL.md"
GOOD = (
    "---\nname: deploy-preview\ndescription: Deploy a preview environment. Use when a reviewer needs one.\n"
    "allowed-tools: Bash Read\nmetadata:\n  tier: K3\n  tags: deploy,preview\n---\n# Deploy\n\nRun it.\n"
)


@pytest.mark.parametrize(
    "front, field, line",
    [
        ("- name: deploy-preview\n- description: x\n", "", 2),  # a list, not a mapping
        ("just a string\n", "", 2),
        (
            "name: deploy-preview\ndescription: d. Use when x.\nmetadata:\n  tags: [deploy, preview]\n",
            "metadata.tags",
            5,
        ),
        ("name: deploy-preview\ndescription: d. Use when x.\nmetadata: [tier, K3]\n", "metadata", 4),
        ("name: [deploy, preview]\ndescription: d. Use when x.\n", "name", 2),
        ("name: deploy-preview\ndescription: {a: 1}\n", "description", 3),
        (
            "name: deploy-preview\ndescription: d. Use when x.\nallowed-tools: {Bash: yes}\n",
            "allowed-tools",
            4,
        ),
    ],
)
def test_a_malformed_vendor_frontmatter_is_a_located_error(tmp_path, front, field, line):
    root = workspace(tmp_path)
    (root / VENDOR).write_text(f"---\n{front}---\n# Deploy\n\nRun it.\n")
    result = cli(root, "validate")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "Error:" not in result.stderr
    hits = [d for d in errors(root) if d["path"] == VENDOR]
    assert hits, errors(root)
    assert hits[0]["line"] == line, hits
    assert hits[0]["field"] == field, hits


@pytest.mark.parametrize(
    "path, words",
    [
        ("/etc", "absolute"),
        ("{root}/vendor/acme-skills", "absolute"),
        ("../outside", ".."),
        (".git", ".git"),
        ("link-out", "symlink"),
    ],
)
def test_a_bad_vendor_root_is_a_located_error(tmp_path, path, words):
    root = workspace(tmp_path)
    (tmp_path / "outside").mkdir()
    (root / "link-out").symlink_to(tmp_path / "outside")
    metadata = root / "registries/metadata.yaml"
    metadata.write_text(
        metadata.read_text().replace(
            "{path: vendor/acme-skills, provider: acme}",
            f"{{path: '{path.format(root=root)}', provider: acme}}",
        )
    )
    result = cli(root, "validate")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    found = errors(root)
    hits = [
        d
        for d in found
        if words in d["message"] and (d["path"] == "registries/metadata.yaml" or d["path"] == "link-out")
    ]
    assert hits, found
    if hits[0]["path"] == "registries/metadata.yaml":
        assert hits[0]["line"] == 4
        assert hits[0]["field"] == "vendor_roots.0.path"


def test_a_well_formed_vendor_skill_still_loads(tmp_path):
    root = workspace(tmp_path)
    (root / VENDOR).write_text(GOOD)
    assert errors(root) == []
