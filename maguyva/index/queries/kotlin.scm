; Kotlin: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Properties are not definitions here; `T(...)` of a class is a call to class T.

; ---- definitions ----
((multiline_comment)? @doc . (class_declaration "class" (type_identifier) @name) @def.class)
((multiline_comment)? @doc . (class_declaration "interface" (type_identifier) @name) @def.interface)
((multiline_comment)? @doc . (object_declaration (type_identifier) @name) @def.class)
(source_file (multiline_comment)? @doc . (function_declaration (simple_identifier) @name) @def.function)
(class_body (multiline_comment)? @doc . (function_declaration (simple_identifier) @name) @def.method)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @def.variable)
(type_alias (type_identifier) @name) @def.type

; ---- references ----
; import a.b.C  /  import a.b.f as g  (the hook strips the last segment when it is no file)
(import_header (identifier (simple_identifier) @name .) @module (import_alias (type_identifier) @alias)?) @ref.import

(call_expression . (simple_identifier) @name) @ref.call
(call_expression . (navigation_expression (_) @qualifier . (navigation_suffix (simple_identifier) @name))) @ref.call

(delegation_specifier [(user_type (type_identifier) @name)
                       (constructor_invocation (user_type (type_identifier) @name))]) @ref.inherit
