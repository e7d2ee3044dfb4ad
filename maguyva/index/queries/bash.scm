; Bash: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).
; Every command is a call reference; only those naming a repository function resolve.

; ---- definitions ----
((comment)* @doc . (function_definition name: (word) @name) @def.function)

; ---- references ----
(command name: (command_name (word) @_load (#any-of? @_load "source" "."))
  argument: [(string) (raw_string) (word) (concatenation)] @module) @ref.import
(command name: (command_name (word) @name)) @ref.call
