"""JavaScript, TypeScript and TSX extraction, and Markdown headings."""

from __future__ import annotations

import textwrap

from maguyva.index.extract import extract_source

JS = textwrap.dedent("""\
    import api, { fetchUser as load, save } from "./api";
    import * as util from "../util";
    const { Router } = require("express");
    const config = require("./config");

    /** Renders a user card. */
    export function renderUser(id) {
      return load(id).then((u) => util.format(u));
    }

    export class Card extends Base {
      #size = 1;
      render() { return new Widget(this.label()); }
    }

    export const MAX_CARDS = 3;
    const makeCard = (x) => new Card(x);
    """).encode()

TS = textwrap.dedent("""\
    import type { User } from "./models";

    export interface Repo<T> extends Store { find(id: string): T }
    export type Id = string | number;
    export enum Color { Red, Green }
    export abstract class UserRepo implements Repo<User> {
      private cache: Map<Id, User> = new Map();
      find(id: Id): User { return this.cache.get(id); }
    }
    namespace Admin { export function reset(): void {} }
    """).encode()


def test_javascript_definitions_and_jsdoc():
    extraction = extract_source("web/card.js", "javascript", JS)
    assert [(s.kind, s.qualified_name, s.line) for s in extraction.symbols] == [
        ("variable", "web.card.config", 4),
        ("function", "web.card.renderUser", 7),
        ("class", "web.card.Card", 11),
        ("field", "web.card.Card.#size", 12),
        ("method", "web.card.Card.render", 13),
        ("constant", "web.card.MAX_CARDS", 16),
        ("function", "web.card.makeCard", 17),
    ]
    assert extraction.symbols[1].doc == "Renders a user card."
    assert extraction.symbols[1].signature == "function renderUser(id)"


def test_javascript_imports_requires_calls_and_inheritance():
    refs = extract_source("web/card.js", "javascript", JS).references
    assert [(r.name, r.module, r.alias) for r in refs if r.kind == "import"] == [
        ("./api", "./api", "api"),
        ("fetchUser", "./api", "load"),
        ("save", "./api", ""),
        ("*", "../util", "util"),  # a namespace import
        ("./config", "./config", "config"),
    ]
    calls = [(r.name, r.qualifier, r.scope) for r in refs if r.kind == "call"]
    assert ("load", "", "web.card.renderUser") in calls
    assert ("format", "util", "web.card.renderUser") in calls
    assert ("Widget", "", "web.card.Card.render") in calls
    assert ("label", "this", "web.card.Card.render") in calls
    assert [(r.name, r.scope) for r in refs if r.kind == "inherit"] == [("Base", "web.card.Card")]


def test_typescript_interfaces_types_enums_namespaces_and_type_references():
    extraction = extract_source("src/repo.ts", "typescript", TS)
    assert [(s.kind, s.qualified_name) for s in extraction.symbols] == [
        ("interface", "src.repo.Repo"),
        ("method", "src.repo.Repo.find"),
        ("type", "src.repo.Id"),
        ("enum", "src.repo.Color"),
        ("class", "src.repo.UserRepo"),
        ("field", "src.repo.UserRepo.cache"),
        ("method", "src.repo.UserRepo.find"),
        ("namespace", "src.repo.Admin"),
        ("function", "src.repo.Admin.reset"),
    ]
    refs = extraction.references
    assert sorted({(r.kind, r.name) for r in refs if r.kind in ("inherit", "import")}) == [
        ("import", "User"),
        ("inherit", "Repo"),
        ("inherit", "Store"),
    ]
    assert {r.name for r in refs if r.kind == "type"} >= {"User", "Id", "Map", "T"}


def test_tsx_uses_the_typescript_query():
    source = (
        b'import { Card } from "./card";\nexport function App(): JSX.Element { return <Card id={1} />; }\n'
    )
    extraction = extract_source("ui/App.tsx", "tsx", source)
    assert [(s.kind, s.name) for s in extraction.symbols] == [("function", "App")]
    assert [(r.kind, r.name, r.module) for r in extraction.references if r.kind == "import"] == [
        ("import", "Card", "./card")
    ]


def test_markdown_headings_are_symbols_qualified_by_their_parent_headings():
    source = b"# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n### On Linux\n\napt.\n\n## Use\n\nCall it.\n"
    extraction = extract_source("docs/guide.md", "markdown", source)
    assert [(s.qualified_name, s.line, s.end_line, s.doc) for s in extraction.symbols] == [
        ("docs.guide.Guide", 1, 15, "Intro."),
        ("docs.guide.Guide.Install", 5, 12, "Run it."),
        ("docs.guide.Guide.Install.On Linux", 9, 12, "apt."),
        ("docs.guide.Guide.Use", 13, 15, "Call it."),
    ]
    assert [(c.start_line, c.end_line, c.kind) for c in extraction.chunks] == [
        (1, 4, "section"),
        (5, 8, "section"),
        (9, 12, "section"),
        (13, 15, "section"),
    ]
