"""What ``orkestra import`` plans: one ``Item`` per original taken in, and the ``ImportPlan`` holding
them with the registry files to write and what was skipped (its ``to_dict`` is the JSON ``import`` prints)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Item:
    kind: str  # agent | skill | command | instruction
    name: str
    source: str  # the original file, repo-relative
    registry: str  # the registry file written
    output: str  # the file sync renders for it
    round_trip: str = ""  # identical | whitespace | differs
    note: str = ""


@dataclass
class ImportPlan:
    root: str
    items: list[Item] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    targets_added: list[str] = field(default_factory=list)
    tools_added: list[str] = field(default_factory=list)
    writes: dict[str, bytes] = field(default_factory=dict, repr=False)
    originals: dict[str, bytes] = field(default_factory=dict, repr=False)  # each source as read, once
    applied: bool = False

    def skip(self, path: str, reason: str) -> None:
        self.skipped.append({"path": path, "reason": reason})

    def to_dict(self) -> dict:
        counts = {
            k: sum(i.round_trip == k for i in self.items) for k in ("identical", "whitespace", "differs")
        }
        return {
            "root": self.root,
            "applied": self.applied,
            "round_trip": counts,
            "items": [asdict(i) for i in self.items],
            "skipped": self.skipped,
            "targets_added": self.targets_added,
            "tools_added": self.tools_added,
            "registry_files": sorted(self.writes),
        }
