; TypeScript definitions and references (capture contract: maguyva/index/extract.py).
; Shares JavaScript's expression syntax but names classes and types with type_identifier.
; inherits: _ecmascript
; (function declarations, variables, calls, imports, facts and CommonJS exports: _ecmascript.scm, shared with JavaScript)

; ---- definitions ----
(function_signature name: (identifier) @name) @def.function

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

; ---- references ----
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

; ---- facts (see _ecmascript.scm) ----
(public_field_definition) @fact.bind
