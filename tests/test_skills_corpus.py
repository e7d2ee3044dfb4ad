"""The labelled trust-review corpus: recall ≥ 95 % on malicious skills, false positives ≤ 5 % on benign ones."""

from __future__ import annotations

import yaml
from skills_helpers import CORPUS

from orkestra.trust.audit import audit_skill_dir

MIN_CASES = 30
MIN_RECALL = 0.95
MAX_FALSE_POSITIVE_RATE = 0.05


def labels() -> dict[str, dict[str, str]]:
    return yaml.safe_load((CORPUS / "labels.yaml").read_text(encoding="utf-8"))


def test_every_corpus_folder_is_labelled_and_every_label_has_a_folder():
    on_disk = {(p.parent.parent.name, p.parent.name) for p in CORPUS.glob("*/*/SKILL.md")}
    labelled = {(label, name) for label, cases in labels().items() for name in cases}
    assert on_disk == labelled
    assert len(labels()["malicious"]) >= MIN_CASES
    assert len(labels()["benign"]) >= MIN_CASES


def test_audit_meets_recall_and_false_positive_targets_on_the_corpus():
    """A skill counts as flagged when it has at least one high finding."""
    matrix = {("malicious", True): [], ("malicious", False): [], ("benign", True): [], ("benign", False): []}
    for label, cases in labels().items():
        for name in cases:
            audit = audit_skill_dir(CORPUS / label / name, CORPUS)
            matrix[(label, audit.flagged)].append(name)
    tp, fn = len(matrix[("malicious", True)]), len(matrix[("malicious", False)])
    fp, tn = len(matrix[("benign", True)]), len(matrix[("benign", False)])
    recall, fp_rate = tp / (tp + fn), fp / (fp + tn)
    print(
        f"\n               flagged  not flagged\n  malicious    {tp:7d}  {fn:11d}\n  benign       {fp:7d}  {tn:11d}"
    )
    print(f"  recall {recall:.3f}  false-positive rate {fp_rate:.3f}")
    print(f"  missed: {matrix[('malicious', False)]}  false positives: {matrix[('benign', True)]}")
    assert recall >= MIN_RECALL
    assert fp_rate <= MAX_FALSE_POSITIVE_RATE


# --- the round-3 corpus (issue 31): written before the rules changed, scored per technique -------------

REVIEW_CORPUS = CORPUS.parent / "skills_review_corpus"
MAX_FALSE_POSITIVES = 1


def test_the_review_corpus_is_labelled_with_a_technique_and_large_enough():
    labelled = yaml.safe_load((REVIEW_CORPUS / "labels.yaml").read_text(encoding="utf-8"))
    on_disk = {(p.parent.parent.name, p.parent.name) for p in REVIEW_CORPUS.glob("*/*/SKILL.md")}
    assert on_disk == {(label, name) for label, cases in labelled.items() for name in cases}
    assert len(labelled["malicious"]) >= 40
    assert len(labelled["benign"]) >= 40
    assert all(case["technique"] for cases in labelled.values() for case in cases.values())


def test_review_corpus_recall_per_technique_and_at_most_one_false_positive():
    labelled = yaml.safe_load((REVIEW_CORPUS / "labels.yaml").read_text(encoding="utf-8"))
    per_technique: dict[str, list[bool]] = {}
    for name, case in labelled["malicious"].items():
        per_technique.setdefault(case["technique"], []).append(
            audit_skill_dir(REVIEW_CORPUS / "malicious" / name, REVIEW_CORPUS).flagged
        )
    flagged_benign = [
        name
        for name in labelled["benign"]
        if audit_skill_dir(REVIEW_CORPUS / "benign" / name, REVIEW_CORPUS).flagged
    ]
    caught = sum(sum(v) for v in per_technique.values())
    total = sum(len(v) for v in per_technique.values())
    print({t: f"{sum(v)}/{len(v)}" for t, v in sorted(per_technique.items())}, flagged_benign)
    assert caught / total >= MIN_RECALL
    assert all(sum(v) / len(v) >= 0.5 for v in per_technique.values())  # no technique left mostly unseen
    assert len(flagged_benign) <= MAX_FALSE_POSITIVES, flagged_benign
