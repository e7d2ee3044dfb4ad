; Scala: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; vals/vars are not definitions here; `new T(...)` targets class T.

; ---- definitions ----
((block_comment)? @doc . (class_definition name: (identifier) @name) @def.class)
((block_comment)? @doc . (object_definition name: (identifier) @name) @def.class)
((block_comment)? @doc . (trait_definition name: (identifier) @name) @def.trait)
((block_comment)? @doc . (enum_definition name: (identifier) @name) @def.enum)
(template_body (block_comment)? @doc . [(function_definition name: (identifier) @name)
                                        (function_declaration name: (identifier) @name)] @def.method)
(compilation_unit (block_comment)? @doc . (function_definition name: (identifier) @name) @def.function)
(type_definition name: (type_identifier) @name) @def.type

; ---- references ----
; import a.b.C  /  import a.b.{C, D}  (the path's segments are captured one by one: up to six)
(import_declaration . (identifier) @module . (identifier) @name .) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (identifier) @name .) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (identifier) @module . (identifier) @name .) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (identifier) @module . (identifier) @module
  . (identifier) @name .) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (identifier) @module . (identifier) @module
  . (identifier) @module . (identifier) @name .) @ref.import
(import_declaration . (identifier) @module . (namespace_selectors [(identifier) @name
  (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (namespace_selectors [(identifier) @name
  (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (identifier) @module . (namespace_selectors
  [(identifier) @name (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @ref.import
(import_declaration . (identifier) @module . (identifier) @module . (identifier) @module . (identifier) @module
  . (namespace_selectors [(identifier) @name
                          (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @ref.import

(call_expression function: (identifier) @name) @ref.call
(call_expression function: (field_expression value: (_) @qualifier field: (identifier) @name)) @ref.call
(instance_expression [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @ref.call

(extends_clause [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @ref.inherit
