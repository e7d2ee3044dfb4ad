"""The starter workspace ``orkestra init`` writes, chosen from what the repository showed; pure.

``starter_files(info)`` returns {repo-relative path: text}; ``@TODAY@`` stands for the date init
runs. Specialists are picked from the languages, framework, packages, tests and CI found (4–6 of
them), each composed from the 27/11/10 primitives in ``scaffold/full`` and told the commands the
repository states and the hub files and entry points to start from (``project_facts``).
"""

from __future__ import annotations

import re

from orkestra.project_info import ProjectInfo
from orkestra.registry_yaml import dump_yaml
from orkestra.scaffolding import SCAFFOLD, telemetry_block

FULL = SCAFFOLD / "full"
K0 = (
    "context-budget-awareness",
    "evidence-based-completion",
    "structured-planning",
    "systematic-debugging",
    "test-first-discipline",
)
MAGUYVA = ["mcp__maguyva__intelligent_search", "mcp__maguyva__find_symbol", "mcp__maguyva__get_file"]
LANGUAGE_NAMES = {
    "python": "Python",
    "javascript": "JavaScript",
    "typescript": "TypeScript",
    "tsx": "TypeScript",
    "rust": "Rust",
    "go": "Go",
    "java": "Java",
    "kotlin": "Kotlin",
    "ruby": "Ruby",
    "c": "C",
    "cpp": "C++",
    "c_sharp": "C#",
    "php": "PHP",
    "swift": "Swift",
    "scala": "Scala",
}
SCOPES = {
    "code-context": (
        "Finding and reading code cheaply with the Maguyva tools.",
        ["foundations/context-budget-awareness"],
    ),
    "planning": ("Splitting work into ordered, verifiable steps.", ["foundations/structured-planning"]),
    "debugging": ("Reproducing failures and fixing their root cause.", ["foundations/systematic-debugging"]),
    "testing": (
        "Tests first, and completion proven by their output.",
        ["foundations/test-first-discipline", "foundations/evidence-based-completion"],
    ),
}


def _agent(
    name: str,
    category: str,
    description: str,
    identity: list[str],
    mindset: str,
    style: str,
    scopes: list[str],
    builtin: list[str],
    domains: list[str],
    instructions: str = "",
) -> dict:
    doc = {
        "name": name,
        "category": category,
        "model": "inherit",
        "description": description,
        "identity": identity,
        "mindset": mindset,
        "style": style,
        "scopes": scopes,
    }
    if domains:
        doc["domains"] = domains
    doc["tools"] = {"builtin": builtin, "mcp_tools": MAGUYVA}
    if instructions:
        doc["instructions"] = instructions
    return doc


def _where(info: ProjectInfo) -> str:
    """The files a specialist starts from: hubs and entry points (from the index, or a scan)."""
    parts = []
    if info.hubs:
        parts.append(
            "Hub files (most imported"
            + (", from the Maguyva index" if info.hubs_from == "maguyva index" else "")
            + "): "
            + ", ".join(f"`{h}`" for h in info.hubs)
            + "."
        )
    if info.entry_points:
        parts.append("Entry points: " + ", ".join(f"`{e}`" for e in info.entry_points) + ".")
    return " ".join(parts)


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _built_on(info: ProjectInfo) -> str:
    """ "this is Flask itself, built on Click, Jinja and Werkzeug" / "built on React"; "" without any."""
    names = list(info.frameworks)
    if not names:
        return ""
    own = names[0] if _is_own(info, names[0]) else ""
    rest = [n for n in names if n != own]
    listed = ", ".join(rest[:-1]) + (" and " if len(rest) > 1 else "") + (rest[-1] if rest else "")
    if own:
        return f"this is {own} itself" + (f", built on {listed}" if rest else "")
    return f"built on {listed}"


def _is_own(info: ProjectInfo, framework: str) -> bool:
    return _slug(framework) in (_slug(info.name), _slug(info.module.rsplit("/", 1)[-1]))


def specialists(info: ProjectInfo, domains: list[str]) -> list[dict]:
    """4–6 specialists for what the repository holds, most broadly useful first; each is told the
    repository's own commands and the hub files and entry points to start from."""
    language = info.languages[0] if info.languages else ""
    lang_name = LANGUAGE_NAMES.get(language, "")
    test = info.test_command
    lint = info.lint_command
    where = _where(info)
    built_on = _built_on(info)
    read = ["Read", "Grep", "Glob", "Bash"]
    write = ["Read", "Edit", "Write", "Grep", "Glob", "Bash"]
    found = [
        _agent(
            "code-reviewer",
            "quality",
            "Reviews changes for correctness, security and fit with the project's "
            "conventions. Use proactively after any code change, before it is committed.",
            ["reviewer", "guardian"],
            "skeptical",
            "technical",
            ["code-context", "testing"],
            read,
            domains,
            _join(
                f"Run `{test}` on the change before approving it." if test else "",
                f"Lint with `{lint}`." if lint else "",
                where,
            ),
        ),
        _agent(
            "debugger",
            "quality",
            "Finds the root cause of failing tests, errors and unexpected behaviour and "
            "fixes it with a regression test. Use when something fails or behaves unexpectedly.",
            ["debugger", "tester"],
            "analytical",
            "technical",
            ["code-context", "debugging", "testing"],
            write,
            domains,
            _join(f"Reproduce with `{test}` (or the narrowest test) first." if test else "", where),
        ),
    ]
    if test:
        found.append(
            _agent(
                "test-engineer",
                "quality",
                f"Writes and maintains tests that prove real behaviour; runs `{test}`. "
                "Use when adding a feature, fixing a bug or when coverage of a change is missing.",
                ["tester", "builder"],
                "meticulous",
                "structured",
                ["code-context", "testing"],
                write,
                domains,
                _join(
                    f"The suite runs with `{test}`"
                    + (
                        f" (as {info.command_sources['test']} says)"
                        if info.command_sources.get("test")
                        else ""
                    )
                    + "; keep new tests fast and deterministic.",
                    where,
                ),
            )
        )
    if lang_name:
        found.append(
            _agent(
                f"{_slug(lang_name)}-specialist",
                "implementation",
                f"Implements and refactors {lang_name} code "
                + (f"in {info.name} ({built_on}) " if built_on else "")
                + f"the way the {lang_name} community writes it. Use when writing or changing {lang_name} "
                "code in this project.",
                ["builder", "linguist"],
                "pragmatic",
                "concise",
                ["code-context", "testing", _slug(lang_name)],
                write,
                domains,
                _join(
                    f"The source packages are {', '.join(f'`{p}`' for p in info.packages)}."
                    if info.packages
                    else "",
                    where,
                    f"Lint with `{lint}`." if lint else "",
                ),
            )
        )
    framework = info.frameworks[0] if info.frameworks else ""
    if framework and _slug(framework) != _slug(lang_name):
        found.append(
            _agent(
                f"{_slug(framework)}-specialist",
                "implementation",
                (
                    f"Knows {framework} from the inside ({built_on}). Use when a change touches "
                    f"{framework}'s public API, extension points or documented behaviour."
                    if _is_own(info, framework)
                    else f"Knows {framework} and how {info.name} uses it ({built_on}). Use when a change "
                    f"touches {framework} APIs, extension points or conventions."
                ),
                ["builder", "linguist"],
                "pragmatic",
                "concise",
                ["code-context", "testing", *([_slug(lang_name)] if lang_name else [])],
                write,
                domains,
                _join(
                    f"Follow {framework}'s own conventions and public API; check a change against its docs.",
                    where,
                ),
            )
        )
    if len(info.packages) >= 2 or len(info.languages) >= 2 or len(found) < 4:
        found.append(
            _agent(
                "architecture-advisor",
                "strategy",
                "Advises on module boundaries, interfaces and the trade-offs of "
                "a design before it is built. Use when a change spans packages or alters a public interface.",
                ["architect", "strategist", "knowledge-architect"],
                "first-principles",
                "structured",
                ["code-context", "planning"],
                ["Read", "Grep", "Glob"],
                domains,
            )
        )
    if info.ci and len(found) < 6:
        found.append(
            _agent(
                "ci-maintainer",
                "operations",
                f"Keeps the CI pipeline ({', '.join(info.ci[:3])}) green and fast. "
                "Use when CI fails, when a workflow changes, or before a release.",
                ["operator", "steward"],
                "risk-aware",
                "concise",
                ["code-context", "debugging"],
                read,
                domains,
                _join(
                    f"Build with `{info.build_command}`." if info.build_command else "",
                    f"Tests: `{test}`." if test else "",
                    f"Lint: `{lint}`." if lint else "",
                ),
            )
        )
    if len(found) < 4:
        found.append(
            _agent(
                "docs-writer",
                "documentation",
                "Writes precise user and contributor documentation that matches the "
                "code. Use when behaviour, commands or configuration change.",
                ["scribe", "teacher"],
                "meticulous",
                "didactic",
                ["code-context"],
                write,
                domains,
            )
        )
    return found[:6]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("++", "pp").replace("#", "sharp")).strip("-")


def _codes(packages: tuple[str, ...]) -> dict[str, dict]:
    """One decision domain per top-level package, with a unique 2–4 letter code."""
    domains: dict[str, dict] = {}
    used: set[str] = set()
    for package in packages:
        name = _slug(package.rsplit("/", 1)[-1]) or "core"
        letters = re.sub(r"[^A-Z]", "", name.upper()).ljust(2, "X")
        candidates = [letters[:3], letters[:4], *(letters[:2] + c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")]
        code = next(c for c in candidates if c not in used)
        used.add(code)
        domains[name] = {"code": code, "description": f"Decisions about {package}/."}
    if not domains:
        domains["project"] = {"code": "PRJ", "description": "Decisions about the project as a whole."}
    return domains


def _truths(info: ProjectInfo) -> dict:
    prefix = (re.sub(r"[^A-Z0-9]", "", info.name.upper()) or "PRJ")[:8]
    prefix = prefix if prefix[0].isalpha() and len(prefix) >= 2 else f"P{prefix}"[:8].ljust(2, "X")
    statements = []

    def add(statement: str, evidence: list[str], tags: list[str], do: list[str]) -> None:
        statements.append(
            {
                "id": f"GT-{prefix}-{len(statements) + 1:03d}",
                "status": "current",
                "statement": statement,
                "evidence": evidence,
                "last_verified": "@TODAY@",
                "tags": tags,
                "agent_guidance": {"do": do},
            }
        )

    if info.manifest:
        add(
            f"The project is {info.name}"
            + (f" ({info.description})" if info.description else "")
            + f"; its metadata lives in {info.manifest}.",
            [info.manifest],
            ["project"],
            [f"Read {info.manifest} for the version and dependencies."],
        )
    if info.test_command:
        add(
            f"Tests run with `{info.test_command}`.",
            list(info.test_evidence),
            ["testing"],
            [f"Run `{info.test_command}` before reporting a change as done."],
        )
    for kind, command in (("lint", info.lint_command), ("build", info.build_command)):
        if command:
            source = info.command_sources.get(kind, "")
            add(
                f"The project {'lints' if kind == 'lint' else 'builds'} with `{command}`.",
                [source] if source else [],
                [kind] if kind == "lint" else [kind, "ci"],
                [f"Run `{command}` before reporting a change as done."]
                if kind == "lint"
                else [f"Build with `{command}` to check packaging changes."],
            )
    if info.frameworks:
        add(
            f"{info.name}: {_built_on(info)}.",
            [info.manifest] if info.manifest else [],
            ["project"],
            [f"Follow the conventions of {info.frameworks[0]} and reuse its APIs before adding new ones."],
        )
    if info.hubs:
        add(
            "The most central source files are " + ", ".join(info.hubs) + ".",
            list(info.hubs),
            ["layout"],
            ["Read these first to learn the code; a change to one of them affects much of the project."],
        )
    if info.languages:
        names = ", ".join(LANGUAGE_NAMES.get(lang, lang) for lang in info.languages[:3])
        add(
            f"The code is written mainly in {names}.",
            list(info.packages[:3]) or [info.manifest or "."],
            ["languages"],
            [f"Follow the conventions of the existing {names.split(',')[0]} code."],
        )
    running = list(info.extra.get("ci_running_tests") or [])[:3]
    if running:
        add(
            f"CI runs the tests in {', '.join(running)}.",
            running,
            ["ci", "testing"],
            ["Reproduce a CI failure with the command that workflow runs before changing code."],
        )
    elif info.ci:
        add(
            f"CI is defined in {', '.join(info.ci[:3])}.",
            list(info.ci[:3]),
            ["ci"],
            ["Check the CI definition for the exact commands before changing build steps."],
        )
    if info.packages:
        add(
            f"The top-level source packages are {', '.join(info.packages)}.",
            list(info.packages),
            ["layout"],
            ["Put new code in the package that owns the behaviour."],
        )
    return {
        "metadata": {
            "title": f"{info.name} ground truths",
            "summary": "Facts init found in the repository; each cites files that exist. Extend "
            "this list as the team verifies more.",
            "last_updated": "@TODAY@",
            "owner": "",
            "render": {
                "groups": [
                    {"title": "Project", "tags": ["project", "layout", "languages"]},
                    {"title": "Build and test", "tags": ["testing", "lint", "build", "ci"]},
                ]
            },
        },
        "statements": statements,
    }


def starter_files(
    info: ProjectInfo,
    *,
    telemetry: bool = False,
    existing_agents: set[str] = frozenset(),
    existing_skills: set[str] = frozenset(),
) -> tuple[dict[str, str], list[str]]:
    """{path: text} of the full starter, and the agent names it defines. Agents and K0 skills whose
    names the repository's hand-written ``.claude/`` already uses are left out (``orkestra import``
    brings the team's own in)."""
    files: dict[str, str] = {}
    domains = _codes(info.packages)
    domain_names = sorted(domains) if info.packages else []
    language = LANGUAGE_NAMES.get(info.languages[0], "") if info.languages else ""
    config = (SCAFFOLD / "orkestra.yaml").read_text(encoding="utf-8").replace("my-project", info.name)
    config += (
        "# Runtimes sync renders for: claude, agents-md, agent-skills, cursor, copilot, plugin.\n"
        "targets: [claude]\n" + telemetry_block(telemetry)
    )
    files["orkestra.yaml"] = config
    for name in ("identities", "mindsets", "styles"):
        files[f"registries/{name}.yaml"] = (FULL / f"{name}.yaml").read_text(encoding="utf-8")
    for name in ("values", "tools"):
        files[f"registries/{name}.yaml"] = (SCAFFOLD / f"{name}.yaml").read_text(encoding="utf-8")
    files["registries/metadata.yaml"] = dump_yaml(
        {"project": info.name, "description": info.description, "vendor_roots": []}
    )
    k0 = [skill for skill in K0 if skill not in existing_skills]
    scopes = {
        name: {"description": d, "primary_skills": [s for s in skills if s.split("/")[1] in k0]}
        for name, (d, skills) in SCOPES.items()
    }
    if language:
        scopes[_slug(language)] = {
            "description": f"{language} conventions. Dormant: register K3 skills with "
            f"`metadata.scope: {_slug(language)}` to load them for "
            f"the {_slug(language)}-specialist only.",
            "dormant": True,
            "primary_skills": [],
        }
    files["registries/scopes.yaml"] = (
        "# Scopes group skills: an agent gets the primary skills of every scope it "
        "declares\n# (K0 foundations load for every agent regardless).\n" + dump_yaml({"scopes": scopes})
    )
    team = [a for a in specialists(info, domain_names) if a["name"] not in existing_agents]
    orchestrator = {
        "name": "orchestrator",
        "category": "coordination",
        "model": "inherit",
        "description": f"Routes each {info.name} task"
        + (f" ({_built_on(info)})" if info.frameworks else "")
        + " to the right specialist and integrates the results. Use proactively for multi-step work.",
        "identity": ["coordinator", "strategist"],
        "mindset": "systematic",
        "style": "concise",
        "orchestrator": True,
        "scopes": ["planning", "code-context"],
        "domains": domain_names,
        "tools": {
            "builtin": ["Agent", "Read", "Grep", "Glob", "Bash", "Skill", "TodoWrite"],
            "mcp_tools": [*MAGUYVA, "mcp__orkestra__why", "mcp__orkestra__search_registry"],
        },
        "tool_guides": ["maguyva", "orkestra"],
    }
    agents = [] if "orchestrator" in existing_agents else [orchestrator]
    for agent in agents + team:
        files[f"registries/agents/{agent['name']}.yaml"] = dump_yaml(agent)
    for skill in k0:
        files[f"registries/skills/foundations/{skill}/SKILL.md"] = (
            FULL / "skills" / f"{skill}.SKILL.md"
        ).read_text(encoding="utf-8")
    files["ai_assets/reference/ground_truths.yaml"] = dump_yaml(_truths(info))
    files["ai_assets/reference/decisions/registry.yaml"] = (
        "# Decision domains (one per top-level package). Records go in records/DEC-<CODE>-NNN.yaml;\n"
        "# `orkestra mine` proposes them from git history.\n" + dump_yaml({"domains": domains})
    )
    for ledger in ("commits_processed.jsonl", "release_notes.jsonl"):
        files[f"ai_assets/reference/changelog/{ledger}"] = ""
    return files, [a["name"] for a in agents + team]
