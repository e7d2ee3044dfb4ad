; Ruby: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; attr_reader/attr_accessor do not create definitions here; `Foo.new` is a call to class Foo.

; ---- definitions ----
((comment)* @doc . (class name: [(constant) @name (scope_resolution name: (constant) @name)]) @def.class)
((comment)* @doc . (module name: [(constant) @name (scope_resolution name: (constant) @name)]) @def.module)
(program (comment)* @doc . (method name: (_) @name) @def.function)
(body_statement (comment)* @doc . (method name: (_) @name) @def.method)
((comment)* @doc . (singleton_method name: (_) @name) @def.method)
(program (assignment left: (constant) @name) @def.constant)
(body_statement (assignment left: (constant) @name) @def.constant)

; ---- references ----
(call !receiver method: (identifier) @_load (#any-of? @_load "require" "require_relative" "load")
  arguments: (argument_list . (string) @module)) @ref.import

(call receiver: (_) @qualifier method: (identifier) @name (#not-eq? @name "new")) @ref.call
(call receiver: [(constant) @name (scope_resolution name: (constant) @name)]
  method: (identifier) @_new (#eq? @_new "new")) @ref.call
(call !receiver method: (identifier) @name) @ref.call

; A bare identifier is a call unless it is a local variable (the hook drops those).
(body_statement (identifier) @name @ref.call)
(block_body (identifier) @name @ref.call)
(interpolation (identifier) @name @ref.call)
(argument_list (identifier) @name @ref.call)
(parenthesized_statements (identifier) @name @ref.call)
(call receiver: (identifier) @name @ref.call)
(element_reference object: (identifier) @name @ref.call)
(binary [left: (identifier) @name @ref.call right: (identifier) @name @ref.call])
(assignment right: (identifier) @name @ref.call)
(pair value: (identifier) @name @ref.call)
(array (identifier) @name @ref.call)
[(if condition: (identifier) @name @ref.call) (unless condition: (identifier) @name @ref.call)
 (if_modifier condition: (identifier) @name @ref.call) (unless_modifier condition: (identifier) @name @ref.call)]

(superclass [(constant) @name (scope_resolution scope: (_) @qualifier name: (constant) @name)]) @ref.inherit
(call !receiver method: (identifier) @_mixin (#any-of? @_mixin "include" "extend" "prepend")
  arguments: (argument_list [(constant) @name (scope_resolution scope: (_) @qualifier name: (constant) @name)])) @ref.inherit
