#!/usr/bin/env node
/**
 * The Node half of scripts/compare-trees.py: parses files with the port's grammars
 * (dist/src/grammars.js: web-tree-sitter and the npm `.wasm` files) and answers, a JSON line
 * a request, the tree of each: every node in preorder as [type, start, end, has_error,
 * is_missing], offsets in code points (web-tree-sitter counts UTF-16 units of a JS string).
 *
 * Request: {"language": "python", "path": "x.py", "nodes": false}. Answer: {"digest": sha256
 * of the node list's JSON, "count": nodes, "has_error": root's, "nodes": list if asked}.
 * A `"text"` field instead of `"path"` parses that text.
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { codePointIndex } from "../dist/src/codepoints.js";
import { loadGrammars, parserFor, parseText } from "../dist/src/grammars.js";

await loadGrammars();

/** The tree's nodes in preorder (a cursor walk: no wrapper object a node). */
function nodesOf(tree, text) {
  const cp = codePointIndex(text);
  const out = [];
  const cursor = tree.walk();
  for (;;) {
    const node = cursor.currentNode;
    out.push([node.type, cp(node.startIndex), cp(node.endIndex), node.hasError, node.isMissing]);
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete();
        return out;
      }
    }
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === "") continue;
  const request = JSON.parse(line);
  let answer;
  try {
    const text = request.text ?? readFileSync(request.path, "utf8");
    const parser = parserFor(request.language);
    if (parser === null) throw new Error(`no grammar for ${request.language}`);
    const tree = parseText(parser, text);
    const nodes = nodesOf(tree, text);
    const hasError = tree.rootNode.hasError;
    tree.delete();
    const digest = createHash("sha256").update(JSON.stringify(nodes)).digest("hex");
    answer = { digest, count: nodes.length, has_error: hasError };
    if (request.nodes) answer.nodes = nodes;
  } catch (error) {
    answer = { error: String(error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
