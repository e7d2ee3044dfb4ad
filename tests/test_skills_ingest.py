"""Ingestion: normalised source skills, refusal on high findings, and the ingest → sync round trip."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from clirun import run_cli
from npm_tools import CLAUDE_CODE, npm_bin
from skills_helpers import CORPUS, make_workspace, skill_source, write

from orkestra.workspace import Workspace
from orkestra.workspace.compose import resolve_skills

SCOPES = {
    "database": {"description": "Databases and migrations", "primary_skills": ["domains/schema-migration"]},
    "bioinformatics": {"description": "Bioinformatics and genomics", "primary_skills": []},
}


def genome_qc(parent: Path) -> Path:
    folder = parent / "genome-qc"
    write(
        folder / "SKILL.md",
        """
        ---
        name: genome-qc
        description: Quality control of sequencing reads. Use when the user asks to check read quality before alignment.
        allowed-tools: Bash(python:*) Read WebFetch
        metadata:
          tags: genomics, qc
        ---
        # Genome QC

        Check reads before alignment.

        1. Run `python scripts/qc.py reads.fastq`.
        2. Read the report in `qc.json`.
        3. Verify that the mean quality is above 30.

        If the script fails with a parse error, check that the file is FASTQ.
        """,
    )
    write(folder / "scripts" / "qc.py", "import sys\nprint(sys.argv[1])\n")
    write(folder / "references" / "phred.md", "# Phred\n\nQ30 is one error in 1000 bases.\n")
    write(folder / "notes.txt", "maintainer notes\n")
    return folder


def workspace(tmp_path: Path) -> Path:
    root = make_workspace(
        tmp_path / "ws",
        scopes=SCOPES,
        agents={"db-engineer": {"scopes": ["database"]}, "analyst": {"scopes": []}},
    )
    skill_source(root, "schema-migration")
    return root


def test_ingest_writes_our_source_format_with_normalised_metadata(tmp_path: Path):
    root = workspace(tmp_path)
    result = run_cli(
        "skills",
        "ingest",
        str(genome_qc(tmp_path)),
        "--tier",
        "K3",
        "--scope",
        "bioinformatics",
        "--provider",
        "kdense",
        cwd=root,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert list(report)[:2] == ["status", "similar"]
    assert (report["status"], report["ref"], report["scope"]) == (
        "written",
        "stacks/genome-qc",
        {"name": "bioinformatics", "dormant": True},
    )
    assert report["unmapped_tools"] == ["WebFetch"]
    assert report["not_copied"] == ["notes.txt"]
    target = root / "registries" / "skills" / "stacks" / "genome-qc"
    front = yaml.safe_load((target / "SKILL.md").read_text().split("---\n")[1])
    assert front["metadata"]["last_updated"] == report["metadata"]["last_updated"]
    assert {k: v for k, v in front["metadata"].items() if k != "last_updated"} == {
        "identifier": "genome-qc",
        "name": "genome-qc",
        "description": "Quality control of sequencing reads. Use when the user asks to check read quality before "
        "alignment.",
        "type": "workflow",
        "layer": "K3",
        "semantic_folder": "stacks",
        "source": "vendor",
        "scope": "bioinformatics",
    }
    assert front["frontmatter"] == {
        "tags": ["genomics", "qc", "kdense", "vendor", "genome"],
        "allowed_tools": ["Bash", "Read"],
    }
    body = (target / "SKILL.md").read_text()
    assert "## When to use\n\nUse when the user asks to check read quality before alignment.\n" in body
    assert (
        "## Failure recovery\n\n- If the script fails with a parse error, check that the file is FASTQ."
        in body
    )
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == [
        "SKILL.md",
        "references/phred.md",
        "scripts/qc.py",
    ]


def test_ingest_dry_run_writes_nothing(tmp_path: Path):
    root = workspace(tmp_path)
    result = run_cli(
        "skills",
        "ingest",
        str(genome_qc(tmp_path)),
        "--tier",
        "K3",
        "--scope",
        "bioinformatics",
        "--dry-run",
        cwd=root,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["status"] == "dry-run"
    assert not (root / "registries" / "skills" / "stacks").exists()


def test_ingest_refuses_a_high_severity_audit_unless_the_risk_is_accepted(tmp_path: Path):
    root = workspace(tmp_path)
    malicious = CORPUS / "malicious" / "m10-script-wget-sh"
    refused = run_cli("skills", "ingest", str(malicious), "--tier", "K4", "--scope", "database", cwd=root)
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["status"] == "refused"
    assert not (root / "registries" / "skills" / "project").exists()
    accepted = run_cli(
        "skills", "ingest", str(malicious), "--tier", "K4", "--scope", "database", "--accept-risk", cwd=root
    )
    assert accepted.returncode == 0
    assert (
        root / "registries" / "skills" / "project" / "m10-script-wget-sh" / "scripts" / "setup.sh"
    ).is_file()


def test_ingest_into_an_unknown_scope_names_the_close_ones(tmp_path: Path):
    root = workspace(tmp_path)
    result = run_cli(
        "skills", "ingest", str(genome_qc(tmp_path)), "--tier", "K3", "--scope", "bioinformatic", cwd=root
    )
    assert result.returncode == 1
    assert "unknown scope 'bioinformatic' (did you mean 'bioinformatics'?)" in result.stderr


def test_ingest_shows_similar_skills_first(tmp_path: Path):
    root = workspace(tmp_path)
    skill_source(
        root,
        "read-quality",
        description="Quality control of sequencing reads. Use when checking reads.",
        tags=("genomics", "qc"),
    )
    report = json.loads(
        run_cli(
            "skills",
            "ingest",
            str(genome_qc(tmp_path)),
            "--tier",
            "K3",
            "--scope",
            "bioinformatics",
            "--dry-run",
            cwd=root,
        ).stdout
    )
    assert report["similar"][0]["name"] == "read-quality"


def _claude() -> Path | None:
    """A Claude Code binary (installed with npm on first use); None when npm cannot provide one."""
    binary, reason = npm_bin(CLAUDE_CODE, "claude")
    if binary is None:
        print(f"skipping claude plugin validate: {reason}")
    return binary


@pytest.mark.external
def test_ingested_skill_round_trips_through_sync_and_stays_dormant_until_declared(tmp_path: Path):
    root = workspace(tmp_path)
    ingest = run_cli(
        "skills", "ingest", str(genome_qc(tmp_path)), "--tier", "K3", "--scope", "bioinformatics", cwd=root
    )
    assert ingest.returncode == 0, ingest.stderr
    assert run_cli("validate", cwd=root).returncode == 0
    sync = run_cli("sync", cwd=root)
    assert sync.returncode == 0, sync.stderr
    rendered = root / ".claude" / "skills" / "genome-qc"
    assert (rendered / "scripts" / "qc.py").is_file()

    check = subprocess.run(
        [str(Path(sys.executable).parent / "agentskills"), "validate", str(rendered)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr

    claude = _claude()
    if claude is not None:
        plugin = tmp_path / "plugin"
        write(
            plugin / ".claude-plugin" / "plugin.json",
            json.dumps(
                {
                    "name": "roundtrip",
                    "version": "1.0.0",
                    "description": "Ingest round trip",
                    "author": {"name": "orkestra tests"},
                }
            ),
        )
        shutil.copytree(rendered, plugin / "skills" / "genome-qc")
        validated = subprocess.run(
            [str(claude), "plugin", "validate", "--strict", str(plugin)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert validated.returncode == 0, validated.stdout + validated.stderr

    ws = Workspace.load(root)
    assert all("genome-qc" not in {r.skill.name for r in resolve_skills(ws, a)} for a in ws.agents.values())
    agent_file = root / "registries" / "agents" / "analyst.yaml"
    agent_file.write_text(agent_file.read_text().replace("scopes: []", "scopes:\n- bioinformatics"))
    ws = Workspace.load(root)
    loaded = {r.skill.name: r.reason for r in resolve_skills(ws, ws.agents["analyst"])}
    assert loaded.get("genome-qc") == "dormant-scope"
    assert "genome-qc" not in {r.skill.name for r in resolve_skills(ws, ws.agents["db-engineer"])}
