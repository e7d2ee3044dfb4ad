; Java: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Constructors are not definitions here: `new T(...)` targets class T.

; ---- definitions ----
((block_comment)? @doc . (class_declaration name: (identifier) @name) @def.class)
((block_comment)? @doc . (interface_declaration name: (identifier) @name) @def.interface)
((block_comment)? @doc . (enum_declaration name: (identifier) @name) @def.enum)
((block_comment)? @doc . (record_declaration name: (identifier) @name) @def.class)
((block_comment)? @doc . (annotation_type_declaration name: (identifier) @name) @def.interface)
((block_comment)? @doc . (method_declaration name: (identifier) @name) @def.method)
(enum_constant name: (identifier) @name) @def.constant

; ---- references ----
; import a.b.C;  → module a.b, name C.   import a.b.*;  → module a.b.   import static a.b.C.m; → module a.b.C, name m.
(import_declaration (scoped_identifier scope: (_) @module name: (identifier) @name) .) @ref.import
(import_declaration (scoped_identifier) @module (asterisk)) @ref.import

(method_invocation object: (_) @qualifier name: (identifier) @name) @ref.call
(method_invocation !object name: (identifier) @name) @ref.call
(object_creation_expression type: [(type_identifier) @name
                                   (generic_type (type_identifier) @name)
                                   (scoped_type_identifier (type_identifier) @name .)]) @ref.call

(superclass [(type_identifier) @name (generic_type (type_identifier) @name)]) @ref.inherit
(super_interfaces (type_list [(type_identifier) @name (generic_type (type_identifier) @name)])) @ref.inherit
(extends_interfaces (type_list [(type_identifier) @name (generic_type (type_identifier) @name)])) @ref.inherit
