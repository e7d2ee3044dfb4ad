; TypeScript definitions and references (capture contract: maguyva/index/extract.py).
; Shares JavaScript's expression syntax but names classes and types with type_identifier.

; ---- definitions ----
(function_declaration name: (identifier) @name) @def.function
((comment) @doc . (function_declaration name: (identifier) @name) @def.function
  (#match? @doc "^/\\*\\*"))
((comment) @doc . (export_statement declaration: (function_declaration name: (identifier) @name) @def.function)
  (#match? @doc "^/\\*\\*"))
(function_signature name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function

[(class_declaration name: (type_identifier) @name)
 (abstract_class_declaration name: (type_identifier) @name)] @def.class
((comment) @doc . [(class_declaration name: (type_identifier) @name)
                   (abstract_class_declaration name: (type_identifier) @name)] @def.class
  (#match? @doc "^/\\*\\*"))
((comment) @doc . (export_statement declaration: [(class_declaration name: (type_identifier) @name)
                                                  (abstract_class_declaration name: (type_identifier) @name)] @def.class)
  (#match? @doc "^/\\*\\*"))

(interface_declaration name: (type_identifier) @name) @def.interface
((comment) @doc . (export_statement declaration: (interface_declaration name: (type_identifier) @name) @def.interface)
  (#match? @doc "^/\\*\\*"))
(type_alias_declaration name: (type_identifier) @name) @def.type
(enum_declaration name: (identifier) @name) @def.enum
(internal_module name: [(identifier) (nested_identifier)] @name) @def.namespace
(module name: [(identifier) (string)] @name) @def.module

[(method_definition name: [(property_identifier) (private_property_identifier)] @name)
 (method_signature name: [(property_identifier) (private_property_identifier)] @name)
 (abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name)] @def.method
((comment) @doc . (method_definition name: [(property_identifier) (private_property_identifier)] @name) @def.method
  (#match? @doc "^/\\*\\*"))

[(public_field_definition name: [(property_identifier) (private_property_identifier)] @name)
 (property_signature name: (property_identifier) @name)] @def.field

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

(extends_clause value: (identifier) @name @ref.inherit)
(extends_clause
  value: (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.inherit)
(implements_clause (type_identifier) @name @ref.inherit)
(implements_clause (generic_type name: (type_identifier) @name @ref.inherit))
(extends_type_clause type: (type_identifier) @name @ref.inherit)
(extends_type_clause type: (generic_type name: (type_identifier) @name @ref.inherit))

(type_annotation (type_identifier) @name @ref.type)
(type_annotation (generic_type name: (type_identifier) @name @ref.type))
(type_annotation (array_type (type_identifier) @name @ref.type))
(type_arguments (type_identifier) @name @ref.type)
(union_type (type_identifier) @name @ref.type)
(intersection_type (type_identifier) @name @ref.type)
(type_alias_declaration value: (type_identifier) @name @ref.type)
(as_expression (_) (type_identifier) @name @ref.type)
(satisfies_expression (_) (type_identifier) @name @ref.type)
(type_annotation (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name) @ref.type)

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
(public_field_definition) @fact.bind

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
