; Go: definitions and references for Maguyva (written for tree-sitter-language-pack 0.13's grammar).

; ---- definitions ----
((comment)* @doc . (function_declaration name: (identifier) @name) @def.function)
((comment)* @doc . (method_declaration name: (field_identifier) @name) @def.method)
((comment)* @doc . (type_declaration (type_spec name: (type_identifier) @name type: (struct_type)) @def.struct))
((comment)* @doc . (type_declaration (type_spec name: (type_identifier) @name type: (interface_type)) @def.interface))
((comment)* @doc . (type_declaration (type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (map_type) (array_type) (function_type) (channel_type)]) @def.type))
(type_declaration (type_alias name: (type_identifier) @name) @def.type)
(method_elem name: (field_identifier) @name) @def.method
(source_file (comment)* @doc . (const_declaration (const_spec name: (identifier) @name) @def.constant))
(source_file (comment)* @doc . (var_declaration (var_spec name: (identifier) @name) @def.variable))

; ---- references ----
(import_spec name: (package_identifier)? @alias path: (interpreted_string_literal) @module) @ref.import

(call_expression function: (identifier) @name) @ref.call
(call_expression
  function: (selector_expression operand: (_) @qualifier field: (field_identifier) @name)) @ref.call

; An embedded field (no name) promotes the embedded type's methods: Go's inheritance.
(field_declaration !name
  type: [(type_identifier) @name
         (pointer_type (type_identifier) @name)
         (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)
         (pointer_type (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))]) @ref.inherit
