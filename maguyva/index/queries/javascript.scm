; JavaScript definitions and references (capture contract: maguyva/index/extract.py).
; inherits: _ecmascript
; (function declarations, variables, calls, imports, facts and CommonJS exports: _ecmascript.scm, shared with TypeScript)

; ---- definitions (a JSDoc variant of a pattern is merged with it by the engine) ----
(class_declaration name: (identifier) @name) @def.class
((comment) @doc . (class_declaration name: (identifier) @name) @def.class
  (#match? @doc "^/\\*\\*"))
((comment) @doc . (export_statement declaration: (class_declaration name: (identifier) @name) @def.class)
  (#match? @doc "^/\\*\\*"))

(method_definition name: [(property_identifier) (private_property_identifier)] @name) @def.method
((comment) @doc . (method_definition name: [(property_identifier) (private_property_identifier)] @name) @def.method
  (#match? @doc "^/\\*\\*"))

(field_definition property: [(property_identifier) (private_property_identifier)] @name) @def.field

; ---- references ----
(class_heritage (identifier) @name @ref.inherit)
(class_heritage
  (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.inherit)

; ---- facts (see _ecmascript.scm) ----
(field_definition value: (_)) @fact.bind
