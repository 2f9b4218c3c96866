/** web-tree-sitter's `Parser.init` takes `Partial<EmscriptenModule>` (from @types/emscripten,
 * which needs the DOM library); the port passes no options, so an empty interface will do. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
interface EmscriptenModule {}
