; Python definitions and references (capture contract: maguyva/index/extract.py).

; ---- definitions ----
; A definition matched twice (with and without a docstring) is merged by the engine.
(class_definition name: (identifier) @name) @def.class
(class_definition
  name: (identifier) @name
  body: (block . (string) @doc)) @def.class

(function_definition name: (identifier) @name) @def.function
(function_definition
  name: (identifier) @name
  body: (block . (string) @doc)) @def.function

(module
  (assignment left: (identifier) @name) @def.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (assignment left: (identifier) @name) @def.variable
  (#not-match? @name "^_*[A-Z][A-Z0-9_]*$"))

(class_definition
  body: (block (assignment left: (identifier) @name) @def.field))

; ---- references ----
(call function: (identifier) @name) @ref.call

(call
  function: (attribute
    object: (_) @qualifier
    attribute: (identifier) @name)) @ref.call

(call function: [(call) (subscript) (parenthesized_expression)] @qualifier) @ref.call  ; f()(), d["k"]()

(raise_statement . (identifier) @name) @ref.call  ; raise E: constructs E
(raise_statement . (attribute object: (_) @qualifier attribute: (identifier) @name)) @ref.call

(decorator (identifier) @name) @ref.call

(decorator
  (attribute object: (_) @qualifier attribute: (identifier) @name)) @ref.call

(class_definition
  superclasses: (argument_list (identifier) @name @ref.inherit))

(class_definition
  superclasses: (argument_list
    (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.inherit))

(type (identifier) @name @ref.type)

(type (generic_type (identifier) @name @ref.type))

(type (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.type)

(import_statement name: (dotted_name) @module) @ref.import

(import_statement
  name: (aliased_import name: (dotted_name) @module alias: (identifier) @alias)) @ref.import

(import_from_statement
  module_name: (_) @module
  name: (dotted_name) @name) @ref.import

(import_from_statement
  module_name: (_) @module
  name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias)) @ref.import

(import_from_statement
  module_name: (_) @module
  (wildcard_import)) @ref.import

; ---- facts for the type and value pass (hook ``facts`` in maguyva/index/lang/python.py; no edges) ----
(assignment) @fact.bind
(for_statement) @fact.bind
(with_item value: (as_pattern) @fact.bind)
(return_statement) @fact.return
(yield) @fact.return
(for_statement) @fact.iterate
(function_definition) @fact.param
(decorated_definition) @fact.decorate
; ``arg`` facts come from the @ref.call nodes whose callee this file defines (see extract.py)
