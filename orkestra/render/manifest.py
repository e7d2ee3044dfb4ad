"""The manifest of generated files: ``<output>/.orkestra-manifest.json`` (committed).

It records which files sync owns (with their content hash) and a digest of every input
at the last sync, so a fresh clone knows what it may prune and ``--check`` can spot drift.
No timestamps: two clean syncs of the same inputs write identical bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.errors import OrkestraError
from orkestra.workspace import jsontext

if TYPE_CHECKING:
    from orkestra.workspace.config import OrkestraConfig

MANIFEST_NAME = ".orkestra-manifest.json"
FORMAT_VERSION = 1


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


MAX_OUTPUT_BYTES = 64 << 20  # no rendered file comes near; a larger one was not written by sync


def file_sha256(path: Path) -> str | None:
    """Hash of a file's bytes, or None when it does not exist. Read with the capped reader: a file over
    MAX_OUTPUT_BYTES (a 3 GB sparse one committed where an output goes) or a FIFO is never read; its
    "hash" names its size, so it matches no manifest entry and counts as changed by hand."""
    from orkestra.fs.links import NotRegularFile, read_regular

    try:
        return sha256(read_regular(path, MAX_OUTPUT_BYTES))
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except NotRegularFile as exc:
        if exc.strerror == "a folder":
            return None
        return f"unread:{exc.strerror}"


@dataclass(frozen=True)
class Manifest:
    """Owned files and merged files (path → sha256 as written; merged ones are never pruned), inputs digest."""

    inputs: str = ""
    files: dict[str, str] = field(default_factory=dict)
    merged: dict[str, str] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        data = {
            "generator": "orkestra sync",
            "version": FORMAT_VERSION,
            "inputs_sha256": self.inputs,
            "files": dict(sorted(self.files.items())),
            "merged": dict(sorted(self.merged.items())),
        }
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


def manifest_path(config: OrkestraConfig) -> str:
    """Repo-relative path of the manifest."""
    return f"{config.paths.output.rstrip('/')}/{MANIFEST_NAME}"


def read_manifest(root: Path, config: OrkestraConfig) -> Manifest | None:
    """The manifest of the last sync, or None before the first one."""
    return read_manifest_at(root, manifest_path(config))


def read_manifest_at(root: Path, rel: str) -> Manifest | None:
    """The manifest at ``root/rel``, or None when there is none."""
    try:
        data = jsontext.loads((root / rel).read_text(encoding="utf-8"))
        return Manifest(
            inputs=str(data.get("inputs_sha256", "")),
            files={str(k): str(v) for k, v in dict(data.get("files", {})).items()},
            merged={str(k): str(v) for k, v in dict(data.get("merged", {})).items()},
        )
    except FileNotFoundError:
        return None
    except (ValueError, TypeError, AttributeError) as exc:
        raise OrkestraError(
            f"{rel}: unreadable manifest ({exc}); restore it from git or delete it and sync with --force"
        ) from exc
