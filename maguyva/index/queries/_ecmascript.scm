; What JavaScript and TypeScript share (capture contract: maguyva/index/extract.py). Not a language:
; javascript.scm and typescript.scm pull it in with `; inherits: _ecmascript` (maguyva/index/languages.py
; prepends it), and every node named here exists in both grammars.

; ---- definitions ----
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.function

(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @def.constant))
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
(program (_ (variable_declarator name: (identifier) @name) @def.variable)
  (#not-match? @name "^[A-Z][A-Z0-9_]*$"))
(program (export_statement declaration: (_ (variable_declarator name: (identifier) @name) @def.variable))
  (#not-match? @name "^[A-Z][A-Z0-9_]*$"))

; ---- references ----
(call_expression function: (identifier) @name) @ref.call
(call_expression
  function: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @ref.call
(new_expression constructor: (identifier) @name) @ref.call
(new_expression
  constructor: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @ref.call

(import_statement . source: (string) @module) @ref.import
(import_statement (import_clause (identifier) @alias) source: (string) @module) @ref.import
(import_statement
  (import_clause (namespace_import "*" @name (identifier) @alias)) source: (string) @module) @ref.import
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @name)))
  source: (string) @module) @ref.import
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @name alias: (identifier) @alias)))
  source: (string) @module) @ref.import
(export_statement
  (export_clause (export_specifier name: (identifier) @name))
  source: (string) @module) @ref.import
(variable_declarator
  name: (identifier) @alias
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @module))
  (#eq? @_require "require")) @ref.import

; ---- facts for the type and value pass (hook ``facts`` in maguyva/index/lang/javascript.py; no edges) ----
(variable_declarator value: (_)) @fact.bind
(assignment_expression) @fact.bind
(return_statement) @fact.return
[(function_declaration) (generator_function_declaration) (method_definition) (function_expression)
 (arrow_function) (generator_function)] @fact.param
; ``arg`` facts come from the @ref.call nodes whose callee this file defines (see extract.py)
(call_expression function: [(call_expression) (subscript_expression) (parenthesized_expression)] @qualifier) @ref.call
; CommonJS: exports.f = function … / module.exports.f = (…) => … define f for require() callers
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)]) @def.function
  (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)]) @def.function
  (#eq? @_module "module") (#eq? @_exports "exports"))
; Members assigned a function: ``View.prototype.lookup = function lookup(name) {…}``, ``res.send = …``
; (owned by ``View`` / ``res``: hook ``owner`` in maguyva/index/lang/javascript.py), with a JSDoc above
(expression_statement (assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @def.function)
((comment) @doc . (expression_statement (assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @def.function)
  (#match? @doc "^/\\*\\*"))
; An accessor defined by a helper call: ``defineGetter(req, 'fresh', function () {…})``
(expression_statement (call_expression
  arguments: (arguments . (identifier) . (string (string_fragment) @name) . [(function_expression) (arrow_function)] .)) @def.function
  (#match? @name "^[A-Za-z_$][A-Za-z0-9_$]*$"))
((comment) @doc . (expression_statement (call_expression
  arguments: (arguments . (identifier) . (string (string_fragment) @name) . [(function_expression) (arrow_function)] .)) @def.function)
  (#match? @doc "^/\\*\\*") (#match? @name "^[A-Za-z_$][A-Za-z0-9_$]*$"))
; A chained assignment names one function twice: ``res.contentType = res.type = function contentType(…)``
(expression_statement (assignment_expression
  right: (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [(function_expression) (arrow_function) (generator_function)]) @def.function))
; A function as an object's property: ``module.exports = { send: function (body) {…} }``, ``{ onClick: () => … }``
(pair key: (property_identifier) @name value: [(function_expression) (arrow_function) (generator_function)]) @def.function

; ---- function declarations (last: the two languages' own definitions follow them) ----
(function_declaration name: (identifier) @name) @def.function
((comment) @doc . (function_declaration name: (identifier) @name) @def.function
  (#match? @doc "^/\\*\\*"))
((comment) @doc . (export_statement declaration: (function_declaration name: (identifier) @name) @def.function)
  (#match? @doc "^/\\*\\*"))
(generator_function_declaration name: (identifier) @name) @def.function
