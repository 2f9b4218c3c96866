import assert from "node:assert/strict";
import { test } from "node:test";
import { ChunkRecordSchema, chunkDocument, readMarkup } from "../src/index.js";

test("HTML-3, HTML-4, HTML-8: a page's text is its blocks joined by a blank line, white space collapsed", () => {
  const page = readMarkup("<h1>Title</h1><p>  a \n b  </p><ul><li>one<li>two</ul>");
  assert.equal(page.text, "Title\n\na b\n\none\ntwo");
  assert.deepEqual(page.blocks.map((b) => [b.kind, b.level, b.start, b.end]), [
    ["heading", 1, 0, 5], ["paragraph", 0, 7, 10], ["list", 0, 12, 19],
  ]);
});

test("HTML-10: a table is a line a row, a tab between cells, its header rows counted", () => {
  const page = readMarkup("<table><thead><tr><th>h</th><th>k</th></tr></thead><tr><td>1</td><td>2</td></tr></table>");
  assert.equal(page.text, "h\tk\n1\t2");
  assert.equal(page.blocks[0]?.header_rows, 1);
});

test("HTML-18, SOURCE-2: offsets count code points; markup offsets count the page's own CRs", () => {
  const markup = "<p>\u{1F600}x</p>\r\n<p>y</p>";
  const page = readMarkup(markup);
  assert.equal(page.text, "\u{1F600}x\n\ny");
  const points = Array.from(markup);
  for (const run of page.segments.filter((s) => s.exact)) {
    assert.equal(Array.from(page.text).slice(run.text_start, run.text_end).join(""),
      points.slice(run.markup_start, run.markup_end).join(""));
  }
  assert.deepEqual(page.blocks.map((b) => [b.start, b.end]), [[0, 2], [4, 5]]);
});

test("HTML-7, HTML-11, HTML-12: permalinks and furniture are not text; main is the content", () => {
  const page = readMarkup('<nav>menu</nav><main><h2>Sec <a href="#s">\u00b6</a></h2><p>body</p></main><footer>f</footer>');
  assert.equal(page.text, "Sec\n\nbody");
});

test("HTML-16: chunkDocument reads a page and chunks its blocks with every strategy", () => {
  const markup = "<title>Page</title><meta name=description content='About it'><h1>One</h1><p>a b c</p><h2>Two</h2><p>d e f</p>";
  for (const strategy of ["heading", "structural", "window", "pages"] as const) {
    const records = chunkDocument(markup, { docId: "p", inputFormat: "html", strategy, maxTokens: 4 });
    assert.ok(records.length > 0, strategy);
    for (const record of records) {
      ChunkRecordSchema.parse(record);
      assert.equal(record.title, "Page");
      assert.deepEqual(record.metadata, { description: "About it" });
    }
    const last = records[records.length - 1];
    assert.deepEqual(last?.heading_path, ["One", "Two"], strategy);
  }
});
