; TSX: the TypeScript query applies unchanged (JSX adds no definitions of its own).
; inherits: typescript
