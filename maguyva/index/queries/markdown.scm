; Markdown: each ATX heading's section is a `heading` definition; nesting of sections gives
; the parent headings. The first paragraph under a heading is its doc.
(section (atx_heading heading_content: (inline) @name)) @def.heading
(section (atx_heading heading_content: (inline) @name) . (paragraph) @doc) @def.heading
(setext_heading heading_content: (paragraph) @name) @def.heading
