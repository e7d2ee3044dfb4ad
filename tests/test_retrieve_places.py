"""Answers at the line an agent reads: the definition that answers, not the file or the class around it.

Small repositories built here, one per kind of question agents ask (issue 30): a method inside a
class, a pasted error message with its values filled in (written in code, repeated in a changelog,
docs and a built bundle), a how-question that says "exception", an IPython traceback, JavaScript
members assigned a function, and who-calls answers that list the package before examples and tests.
"""

from __future__ import annotations

import pytest

from maguyva.retrieve.intent import classify
from maguyva.retrieve.message import fixed_text, fragments, is_message
from maguyva.retrieve.query import parse, without_listings
from tests.maguyva_project import open_indexed

CONTEXT = '''"""Invocation state."""


class Context:
    """The state of one invocation: the command, its parameters and the parent context."""

    color = None

    def __init__(self, command, parent=None):
        self.command = command
        self.parent = parent
        self.params = {}

    def lookup_default(self, name):
        """The default value of a parameter, from the default map."""
        return self.default_map.get(name)

    def find_root(self):
        """Walk up the parent chain to the outermost context."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def scope(self, cleanup=True):
        """A context manager that pushes this context."""
        return _Scope(self, cleanup)
'''

VIEWS = '''"""Template lookup."""

import os


def _find(name, dirs):
    for root in dirs:
        candidate = os.path.join(root, name)
        if os.path.exists(candidate):
            return candidate
    return None


def lookup(name, dirs):
    """The template file for a view name."""
    path = _find(name, dirs)
    if path is None:
        raise LookupError(f'Failed to lookup view "{name}" in views directory "{dirs}"')
    return path


def render(name, dirs, context):
    return open(lookup(name, dirs)).read().format(**context)
'''

HANDLERS = '''"""Error handlers registered on the application."""


class App:
    def __init__(self):
        self.error_handler_spec = {}

    def register_error_handler(self, code_or_exception, handler):
        """Register a function to handle errors by code or exception class."""
        self.error_handler_spec[code_or_exception] = handler

    def _find_error_handler(self, exc):
        """Find the registered error handler for an exception: walk the exception class's MRO and
        return the first handler registered for one of its classes."""
        for cls in type(exc).__mro__:
            handler = self.error_handler_spec.get(cls)
            if handler is not None:
                return handler
        return None

    def handle_exception(self, exc):
        """Log an unhandled exception and answer 500."""
        self.log(exc)
        return 500
'''

PYTHON_FILES = {
    "app/__init__.py": "",
    "app/context.py": CONTEXT,
    "app/views.py": VIEWS,
    "app/handlers.py": HANDLERS,
    "app/suggest.py": '''"""Parsing command lines."""


def parse_options(argv, known):
    """Split argv into known options and the rest; unknown options are reported with suggestions."""
    options, rest = {}, []
    for token in argv:
        if token.startswith("--") and token[2:] not in known:
            raise UsageError(no_such_option(token, known))
        options[token] = True
    return options, rest


def no_such_option(name, known):
    close = [k for k in known if k[:2] == name[2:4]]
    message = f"No such option: {name}."
    if close:
        message += " Did you mean " + ", ".join(close) + "?"
    return message
''',
    "app/core/__init__.py": "",
    "app/core/common.py": '''def get_chunksizes(variables):
    """The chunk sizes shared by every variable; a conflict raises."""
    chunks = {}
    for v in variables:
        for dim, size in v.chunks.items():
            if chunks.get(dim, size) != size:
                raise ValueError("inconsistent chunks")
            chunks[dim] = size
    return chunks
''',
    "app/core/dataset.py": """from app.core.common import get_chunksizes


class Dataset:
    @property
    def chunks(self):
        return get_chunksizes(self.variables.values())
""",
    "CHANGELOG.md": "# Changes\n\n"
    + '- The message "Failed to lookup view \\"index\\" in views directory" is clearer.\n' * 5,
    "docs/errors.md": '# Errors\n\nError: Failed to lookup view "index" in views directory "/srv/app/views"\n'
    * 5,
    "dist/app.js": 'function l(n,d){throw new Error("Failed to lookup view \\""+n+"\\" in views directory \\""+d+"\\"")}\n',
}


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    opened = open_indexed(tmp_path_factory.mktemp("places") / "repo", PYTHON_FILES)
    yield opened
    opened.close()


def first(answer) -> dict:
    return answer["results"][0]


def test_the_method_that_answers_is_cited_not_the_class_around_it(api):
    answer = api.intelligent_search("How do I get to the outermost context by walking up the parent chain?")
    top = first(answer)
    assert top["path"] == "app/context.py"
    assert top["symbol"].endswith("Context.find_root")
    assert top["line"] == CONTEXT.splitlines().index("    def find_root(self):") + 1
    assert top["kind"] == "method"


def test_a_pasted_error_with_its_values_filled_in_finds_the_raise_in_code(api):
    query = 'Error: Failed to lookup view "index" in views directory "/srv/app/views"'
    assert is_message(parse(query))
    assert fragments(query)[:2] == ["Failed to lookup view", "in views directory"]
    answer = api.intelligent_search(query)
    top = first(answer)
    assert top["path"] == "app/views.py"  # not the changelog, the docs or the built bundle
    assert top["symbol"].endswith("views.lookup")
    assert top["line"] == next(
        i for i, line in enumerate(VIEWS.splitlines(), 1) if "raise LookupError" in line
    )
    assert any("pasted message" in note for note in answer["notes"])
    # the built bundle, the changelog and the docs repeat the message: listed, if at all, as demoted
    repeats = [r for r in answer["results"] if r["path"] in ("dist/app.js", "CHANGELOG.md", "docs/errors.md")]
    assert repeats
    assert all(r["demoted"] for r in repeats)


def test_the_values_of_a_message_are_left_out_of_what_the_ranker_reads():
    assert fixed_text("rich.color.ColorParseError: 'bluee' is not a valid color") == (
        "rich.color.ColorParseError: … is not a valid color"
    )
    assert "bluee" not in fixed_text("rich.color.ColorParseError: 'bluee' is not a valid color")
    assert not is_message(parse("Where is the 'trust proxy' setting compiled into a function?"))


def test_a_how_question_that_says_exception_is_no_literal_lookup(api):
    query = "how are error handlers looked up for an exception"
    assert classify(parse(query)).name == "understand_code"
    assert classify(parse("Which code reads the EDITOR environment variable?")).name != "exact_match"
    assert classify(parse("ENOENT when opening the config")).name == "exact_match"
    answer = api.intelligent_search(query)
    assert answer["fusion_strategy"] == "ranked"
    assert first(answer)["symbol"].endswith("App._find_error_handler")


def test_an_ipython_traceback_is_read_as_frames(api):
    query = """Dataset.chunks fails with inconsistent chunks

File ~/miniconda3/envs/x/lib/python3.10/site-packages/app/core/dataset.py:7, in Dataset.chunks(self)
      5 @property
----> 7     return get_chunksizes(self.variables.values())

File ~/miniconda3/envs/x/lib/python3.10/site-packages/app/core/common.py:7, in get_chunksizes(variables)
      5 for dim, size in v.chunks.items():
----> 7     raise ValueError("inconsistent chunks")

ValueError: inconsistent chunks
"""
    parsed = parse(query)
    assert [f.function for f in parsed.frames] == ["Dataset.chunks", "get_chunksizes"]
    assert [f.line for f in parsed.frames] == [7, 7]
    answer = api.intelligent_search(query)
    assert first(answer)["path"] == "app/core/common.py"
    assert first(answer)["symbol"].endswith("get_chunksizes")


def test_an_older_ipython_traceback_takes_the_line_from_the_arrow():
    parsed = parse(
        "Traceback (most recent call last)\n~/src/app/core/common.py in get_chunksizes(variables)\n"
        "      5     for v in variables:\n----> 7         raise ValueError('x')\n"
    )
    assert [(f.function, f.line) for f in parsed.frames] == [("get_chunksizes", 7)]


def test_a_pasted_environment_listing_is_left_out_of_the_question():
    text = (
        "Plotting fails on datetime axes\n\n<details>\nINSTALLED VERSIONS\n------------------\ncommit: None\n"
        "python: 3.10.4 | packaged by conda-forge\nOS: Linux\nnumpy: 1.23.0\npandas: 1.4.3\nscipy: 1.8.1\n"
        "</details>\n\nnumpy 1.23.0\n"
    )
    kept = without_listings(text)
    assert "Plotting fails on datetime axes" in kept
    assert "scipy" not in kept
    assert "pandas" not in kept
    assert "commit: None" not in kept
    assert "numpy 1.23.0" in kept  # one line alone is no listing
    assert "KeyError: 'x'" in without_listings("Fails\nKeyError: 'x'\n")


JS_FILES = {
    "lib/response.js": """'use strict';

var res = Object.create(null);
module.exports = res;

/**
 * Set the Content-Type header from a file extension or a mime type.
 */
res.contentType = res.type = function contentType(type) {
  return this.set('Content-Type', type.indexOf('/') === -1 ? lookup(type) : type);
};

/**
 * Send a response body: pick the Content-Type and compute the Content-Length.
 */
res.send = function send(body) {
  if (typeof body === 'string') {
    this.type('html');
  }
  this.set('Content-Length', Buffer.byteLength(body));
  return this.end(body);
};

/**
 * Send the status code as the body.
 */
res.sendStatus = function sendStatus(code) {
  this.type('txt');
  return this.send(String(code));
};
""",
    "lib/application.js": """'use strict';

var app = exports = module.exports = {};

/**
 * Render a view with a callback answering the rendered string.
 */
app.render = function render(name, options, callback) {
  var view = this.lookup(name);
  if (!view) {
    var err = new Error('Failed to lookup view "' + name + '" in views directory "' + this.dirs + '"');
    return callback(err);
  }
  view.render(options, callback);
};
""",
    "lib/view.js": """'use strict';

module.exports = View;

function View(name) {
  this.name = name;
}

/**
 * Lookup view by the given name, trying each configured views directory.
 */
View.prototype.lookup = function lookup(name) {
  for (var i = 0; i < this.roots.length; i++) {
    var path = this.resolve(this.roots[i], name);
    if (path) return path;
  }
};
""",
    "lib/request.js": """'use strict';

var req = Object.create(null);

/**
 * Check if the request is fresh, aka Last-Modified or the ETag still match.
 */
defineGetter(req, 'fresh', function () {
  return this.method === 'GET' && freshness(this.headers);
});

function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, { get: getter });
}
""",
    "src/errors.ts": """export class HTTPError extends Error {
  response: Response;

  constructor(response: Response, request: Request) {
    const status = `${response.status} ${response.statusText}`.trim();
    const reason = status ? `status code ${status}` : 'an unknown error';
    super(`Request failed with ${reason}: ${request.method} ${request.url}`);
    this.response = response;
  }
}
""",
    "test/http-error.ts": "expect(error.message).toBe('Request failed with status code 404 Not Found: GET https://a.b/c');\n",
    "examples/app.js": "var res = require('../lib/response');\nfunction page() { res.type('html'); }\n",
    "test/res.type.js": "var res = require('../lib/response');\nfunction t() { res.type('json'); }\n",
    "dist/express.min.js": 'var a={};a.render=function(n){throw new Error("Failed to lookup view \\""+n+'
    '"\\" in views directory \\""+this.dirs+"\\"")};\n',
}


@pytest.fixture(scope="module")
def js(tmp_path_factory):
    opened = open_indexed(tmp_path_factory.mktemp("places-js") / "repo", JS_FILES)
    yield opened
    opened.close()


def test_javascript_members_assigned_a_function_are_definitions(js):
    names = {s.qualified_name for path in JS_FILES for s in js.store.symbols_in(path)}
    assert {"lib.response.res.send", "lib.response.res.type", "lib.response.res.sendStatus"} <= names
    assert "lib.view.View.lookup" in names
    assert "lib.request.req.fresh" in names
    answer = js.intelligent_search("res.send")
    assert first(answer)["path"] == "lib/response.js"
    assert first(answer)["symbol"] == "lib.response.res.send"


def test_a_javascript_error_is_cited_in_source_not_in_the_built_bundle(js):
    answer = js.intelligent_search('Error: Failed to lookup view "index" in views directory "/srv/app/views"')
    top = first(answer)
    assert top["path"] == "lib/application.js"
    assert top["symbol"] == "lib.application.app.render"
    assert "new Error" in JS_FILES["lib/application.js"].splitlines()[top["line"] - 1]


def test_callers_through_this_are_found_and_the_package_comes_before_examples_and_tests(js):
    answer = js.intelligent_search("Who calls res.type()?")
    places = [(r["path"], r["symbol"]) for r in answer["results"]]
    assert ("lib/response.js", "lib.response.res.send") in places
    assert ("lib/response.js", "lib.response.res.sendStatus") in places
    order = [p for p, _ in places]
    assert order.index("lib/response.js") < min(
        order.index(p) for p in ("examples/app.js", "test/res.type.js")
    )
    assert any("in all call or use res.type directly" in note for note in answer["notes"])


def test_a_concept_question_finds_the_member_by_its_words(js):
    answer = js.intelligent_search(
        "Where is a view name mapped to a file, trying each configured views directory?"
    )
    assert first(answer)["symbol"] == "lib.view.View.lookup"


def test_a_message_whose_text_runs_into_a_value_is_found_by_its_longest_written_run(js):
    # the code writes ``Request failed with ${reason}``: "status code 404 Not Found" was a value too,
    # and only a test spells the whole message out
    answer = js.intelligent_search(
        "HTTPError: Request failed with status code 404 Not Found: GET https://x.io/a"
    )
    top = first(answer)
    assert top["path"] == "src/errors.ts"
    assert top["symbol"].endswith("HTTPError.constructor")
    assert "super(`Request failed with" in JS_FILES["src/errors.ts"].splitlines()[top["line"] - 1]


@pytest.mark.parametrize(
    "question",
    [
        "What depends on app.core.common?",
        "what depends on app/core/common.py",
        "who uses common.py?",
        "What imports `app.core.common`?",
    ],
)
def test_the_object_of_a_dependency_question_may_be_a_module_a_path_or_a_file_name(api, question):
    answer = api.intelligent_search(question)
    assert answer["intent"] in ("impact_analysis", "find_references")
    assert answer["fusion_strategy"] == "direct"
    assert "app/core/dataset.py" in [r["path"] for r in answer["results"]]
    assert any("in all" in note and "directly" in note for note in answer["notes"])


def test_a_phrase_the_question_quotes_leads_to_the_line_that_writes_it(api):
    answer = api.intelligent_search('Where are the "Did you mean ...?" hints built for a mistyped option?')
    top = first(answer)
    assert top["symbol"].endswith("suggest.no_such_option")
    assert "Did you mean" in PYTHON_FILES["app/suggest.py"].splitlines()[top["line"] - 1]
    assert "message" in top["signals"]
