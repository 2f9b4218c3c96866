/** chunkspec in TypeScript: the names and helpers of the Python package, Python's semantics. */

export { compareCodePoints } from "./assemble.js";
export { STRATEGIES, assemble, chunkDocument, splitSection } from "./api.js";
export type { AssembleOptions, ChunkDocumentOptions, SplitSectionOptions, Strategy } from "./api.js";
export { Chunk, render } from "./chunk.js";
export { hashText } from "./hashing.js";
export { SEPARATORS, countTokens } from "./tokens.js";
export { ArgumentTypeError, ArgumentValueError, MAX_SAFE_INTEGER } from "./validate.js";
export { WHITESPACE, isSpace, pySplit, pyStrip } from "./whitespace.js";
export { words } from "./words.js";
export type { ChunkRecord, JsonValue } from "./record.js";
export { chunkWindows } from "./windows.js";
export { ChunkRecordSchema, ChunkSchema, RECORD_KINDS } from "./schema.js";
export type { Chunk as SeedChunk } from "./schema.js";
export { splitMarkdownRecords } from "./structural.js";
export { headingAwareRecords } from "./headingAware.js";
export { chunkPages, joinPages, PAGE_SEPARATOR } from "./pages.js";
export { CLOSERS, TERMINATORS, WIDE_TERMINATORS, sentenceSpans, sentenceSpansOfPoints, splitSentences } from "./sentences.js";
export { tokenWindows } from "./tokenWindows.js";
export { packRecords, readable } from "./packRecords.js";
export { ACCESS_KEYS, InputError } from "./frontMatter.js";
export type { Citation, PackedContext, PackOptions, Principal } from "./packRecords.js";
export { readMarkup } from "./html.js";
export { CODE_LANGUAGES, chunkCode } from "./code.js";
export type { ChunkCodeOptions, CodeChunks, CodeLanguage, CodeSpan, ParseCode, SyntaxCursor, SyntaxNode, SyntaxTree } from "./code.js";
export type { HtmlPage, HtmlSegment } from "./html.js";
