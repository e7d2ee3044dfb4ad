; Swift: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Initialisers and stored properties are not definitions here; `T(...)` of a type targets T.

; ---- definitions ----
((comment)* @doc . (class_declaration "class" name: (type_identifier) @name) @def.class)
((comment)* @doc . (class_declaration "actor" name: (type_identifier) @name) @def.class)
((comment)* @doc . (class_declaration "struct" name: (type_identifier) @name) @def.struct)
((comment)* @doc . (class_declaration "enum" name: (type_identifier) @name) @def.enum)
((comment)* @doc . (protocol_declaration name: (type_identifier) @name) @def.interface)
(class_body (comment)* @doc . (function_declaration name: (simple_identifier) @name) @def.method)
(enum_class_body (comment)* @doc . (function_declaration name: (simple_identifier) @name) @def.method)
(protocol_body (protocol_function_declaration name: (simple_identifier) @name) @def.method)
(source_file (comment)* @doc . (function_declaration name: (simple_identifier) @name) @def.function)
(typealias_declaration name: (type_identifier) @name) @def.type

; ---- references ----
(import_declaration (identifier) @module) @ref.import

(call_expression . (simple_identifier) @name) @ref.call
(call_expression . (navigation_expression target: (_) @qualifier
  suffix: (navigation_suffix suffix: (simple_identifier) @name))) @ref.call

(inheritance_specifier inherits_from: (user_type (type_identifier) @name)) @ref.inherit
