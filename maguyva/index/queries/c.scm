; C: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Prototypes are declarations, not definitions: a call targets the function's body.

; ---- definitions ----
((comment)? @doc . (function_definition
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator declarator: (pointer_declarator
                 declarator: (function_declarator declarator: (identifier) @name)))]) @def.function)
((comment)? @doc . (struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct)
((comment)? @doc . (union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct)
((comment)? @doc . (enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum)
((comment)? @doc . (type_definition
  type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_))]
  declarator: (type_identifier) @name) @def.struct)
((comment)? @doc . (type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @def.enum)
((comment)? @doc . (type_definition
  type: [(primitive_type) (type_identifier) (sized_type_specifier)
         (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))]) @def.type)
(enumerator name: (identifier) @name) @def.constant
(preproc_def name: (identifier) @name value: (_)) @def.constant
(preproc_function_def name: (identifier) @name) @def.function
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @def.variable)

; ---- references ----
(preproc_include path: [(string_literal) (system_lib_string)] @module) @ref.import
(call_expression function: (identifier) @name) @ref.call
