; C#: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Constructors and properties are not definitions here: `new T(...)` targets class T.

; ---- definitions ----
((comment)* @doc . (class_declaration name: (identifier) @name) @def.class)
((comment)* @doc . (record_declaration name: (identifier) @name) @def.class)
((comment)* @doc . (interface_declaration name: (identifier) @name) @def.interface)
((comment)* @doc . (struct_declaration name: (identifier) @name) @def.struct)
((comment)* @doc . (enum_declaration name: (identifier) @name) @def.enum)
((comment)* @doc . (method_declaration name: (identifier) @name) @def.method)
((comment)* @doc . (delegate_declaration name: (identifier) @name) @def.type)
(enum_member_declaration name: (identifier) @name) @def.constant
(namespace_declaration name: [(identifier) (qualified_name)] @name) @def.namespace
(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @def.namespace

; ---- references ----
; using A.B;  (a namespace)   using static A.B.C;   using X = A.B.C;
(using_directive . [(identifier) (qualified_name)] @module .) @ref.import
(using_directive "static" (qualified_name qualifier: (_) @module name: (identifier) @name)) @ref.import
(using_directive name: (identifier) @alias (qualified_name qualifier: (_) @module name: (identifier) @name)) @ref.import

(invocation_expression function: (identifier) @name) @ref.call
(invocation_expression function: (generic_name (identifier) @name)) @ref.call
(invocation_expression function: (member_access_expression expression: (_) @qualifier
  name: [(identifier) @name (generic_name (identifier) @name)])) @ref.call
(object_creation_expression type: [(identifier) @name
                                   (generic_name (identifier) @name)
                                   (qualified_name qualifier: (_) @qualifier name: (identifier) @name)]) @ref.call

(base_list [(identifier) @name
            (generic_name (identifier) @name)
            (qualified_name qualifier: (_) @qualifier name: (identifier) @name)]) @ref.inherit
