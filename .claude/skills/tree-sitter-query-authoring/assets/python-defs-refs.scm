; Worked example of Maguyva's capture contract (maguyva/index/extract.py), for Python.
; Definitions: @def.<kind> on the whole node, @name on its identifier, optional @doc.
; References:  @ref.<kind> on the use, @name on the referenced identifier, optional @qualifier.
; Imports:     @ref.import with @module (the module as written) and optionally @name / @alias.

(class_definition
  name: (identifier) @name) @def.class

(function_definition
  name: (identifier) @name
  body: (block . (string) @doc)) @def.function
; (matched again below without @doc: the engine merges both matches of one node)

(function_definition
  name: (identifier) @name) @def.function

; A plain call: foo(...)
(call
  function: (identifier) @name) @ref.call

; A qualified call: obj.foo(...) / pkg.foo(...) - the receiver is kept as @qualifier
(call
  function: (attribute
    object: (_) @qualifier
    attribute: (identifier) @name)) @ref.call

; import a.b
(import_statement
  name: (dotted_name) @module) @ref.import

; from a.b import c
(import_from_statement
  module_name: (dotted_name) @module
  name: (dotted_name) @name) @ref.import

; class C(Base): ...
(class_definition
  superclasses: (argument_list
    (identifier) @name)) @ref.inherit
