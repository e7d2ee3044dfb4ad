"""The weighted-field scorer shared by every registry kind (orkestra/search.py)."""

from __future__ import annotations

from orkestra.search import Entry, SearchIndex, tokenize


def truth(key: str, statement: str = "", rationale: str = "", tags: str = "", evidence: str = "") -> Entry:
    return Entry(
        "truth",
        key,
        statement,
        {"id": key, "statement": statement, "rationale": rationale, "tags": tags, "evidence": evidence},
    )


def ids(hits) -> list[str]:
    return [hit.id for hit in hits]


def test_tokenize_keeps_compounds_and_their_parts():
    assert tokenize("See DEC-PL-142 in a/b.py") == [
        "see",
        "dec-pl-142",
        "dec",
        "pl",
        "142",
        "in",
        "a/b.py",
        "a",
        "b",
        "py",
    ]


def test_truth_fields_rank_by_spec_weights_id_statement_rationale_tags_evidence():
    """The same word in id (6) > statement (5) > rationale (4) > tags (3) > evidence (2)."""
    index = SearchIndex.build(
        [
            truth("GT-E-001", evidence="docs/cache.md"),
            truth("GT-T-001", tags="cache"),
            truth("GT-R-001", rationale="the cache is warm"),
            truth("GT-S-001", statement="cache everything"),
            truth("GT-CACHE-001"),
        ]
    )
    hits = index.search("cache")
    assert ids(hits) == ["GT-CACHE-001", "GT-S-001", "GT-R-001", "GT-T-001", "GT-E-001"]
    assert [hit.score for hit in hits] == [6, 5, 4, 3, 2]


def test_exact_id_hit_ranks_first_even_against_higher_scores():
    index = SearchIndex.build(
        [
            truth("GT-A-001", statement="supersedes GT-A-002", rationale="see GT-A-002", tags="GT-A-002"),
            truth("GT-A-002", statement="unrelated"),
        ]
    )
    hits = index.search("gt-a-002")
    assert ids(hits) == ["GT-A-002", "GT-A-001"]
    assert hits[0].exact
    assert not hits[1].exact
    assert hits[1].score > hits[0].score


def test_entries_matching_every_term_outrank_higher_scoring_partial_matches():
    index = SearchIndex.build(
        [
            truth("GT-A-001", statement="retry retry storage", rationale="retry", tags="retry"),
            truth("GT-A-002", evidence="retry backoff"),
        ]
    )
    hits = index.search("retry backoff")
    assert ids(hits) == ["GT-A-002", "GT-A-001"]
    assert [hit.matched_terms for hit in hits] == [2, 1]


def test_prefix_matches_count_half_and_rank_below_whole_words():
    index = SearchIndex.build(
        [truth("GT-A-001", statement="databases"), truth("GT-A-002", statement="database")]
    )
    hits = index.search("database")
    assert ids(hits) == ["GT-A-002", "GT-A-001"]
    assert [hit.score for hit in hits] == [5, 2.5]


def test_compound_term_matches_its_parts_when_the_compound_is_absent():
    index = SearchIndex.build(
        [truth("GT-A-001", statement="plan a schema migration"), truth("GT-A-002", statement="schema only")]
    )
    assert ids(index.search("schema-migration")) == ["GT-A-001"]


def test_multi_word_phrase_found_verbatim_scores_above_scattered_words():
    index = SearchIndex.build(
        [
            truth("GT-A-001", statement="flat orchestration of agents"),
            truth("GT-A-002", statement="orchestration is flat"),
        ]
    )
    hits = index.search("flat orchestration")
    assert ids(hits) == ["GT-A-001", "GT-A-002"]
    assert hits[0].score == hits[1].score + 5


def test_ties_break_on_kind_order_then_key_deterministically():
    entries = [
        truth("GT-B-001", statement="cache"),
        truth("GT-A-001", statement="cache"),
        Entry("skill", "zz-cache-skill", "", {"description": "cache"}),
    ]
    first = SearchIndex.build(entries).search("cache")
    again = SearchIndex.build(list(reversed(entries))).search("cache")
    assert ids(first) == ids(again) == ["zz-cache-skill", "GT-A-001", "GT-B-001"]


def test_kinds_and_limit_restrict_the_hits():
    index = SearchIndex.build(
        [truth("GT-A-001", statement="cache"), Entry("agent", "cache-keeper", "", {"id": "cache-keeper"})]
    )
    assert ids(index.search("cache", kinds=["truth"])) == ["GT-A-001"]
    assert ids(index.search("cache", limit=1)) == ["cache-keeper"]
    assert index.search("   ") == []
    assert index.search("nothing-like-this") == []
