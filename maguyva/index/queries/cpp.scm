; C++: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Free-function prototypes and in-class method declarations are not definitions (the body is),
; except pure virtual methods (`= 0`), whose declaration is the only place they are defined.
; Constructors, destructors and object construction are not extracted.

; ---- definitions ----
((comment)? @doc . (function_definition type: (_)
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (reference_declarator (function_declarator declarator: (identifier) @name))]) @def.function)
((comment)? @doc . (function_definition type: (_)
  declarator: [(function_declarator declarator: [(field_identifier) @name (operator_name) @name])
               (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
               (reference_declarator (function_declarator declarator: (field_identifier) @name))]) @def.method)
((comment)? @doc . (function_definition type: (_)
  declarator: [(function_declarator declarator: (qualified_identifier name: (identifier) @name))
               (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (identifier) @name)))
               (reference_declarator (function_declarator declarator: (qualified_identifier name: (identifier) @name)))]) @def.method)
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name)
  default_value: (number_literal)) @def.method
((comment)? @doc . (class_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.class)
((comment)? @doc . (struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct)
((comment)? @doc . (union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct)
((comment)? @doc . (enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum)
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @def.namespace
(alias_declaration name: (type_identifier) @name) @def.type
(type_definition declarator: (type_identifier) @name) @def.type
(preproc_def name: (identifier) @name value: (_)) @def.constant

; ---- references ----
(preproc_include path: [(string_literal) (system_lib_string)] @module) @ref.import

(call_expression function: (identifier) @name) @ref.call
(call_expression function: (qualified_identifier scope: (_) @qualifier name: (identifier) @name)) @ref.call
(call_expression function: (qualified_identifier scope: (_) @qualifier
  name: (template_function name: (identifier) @name))) @ref.call
(call_expression function: (template_function name: (identifier) @name)) @ref.call
(call_expression function: (field_expression argument: (_) @qualifier
  field: [(field_identifier) @name (template_method name: (field_identifier) @name)])) @ref.call

(base_class_clause [(type_identifier) @name
                    (qualified_identifier scope: (_) @qualifier name: (type_identifier) @name)
                    (template_type name: (type_identifier) @name)]) @ref.inherit
