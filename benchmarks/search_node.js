// The site's search in Node: site_templates/assets/search-engine.js, the file the search page
// runs, over the index files `judge build` wrote (a site's search-index/ folder), without a
// browser. tests/test_search_parity.py and benchmarks/search.py use it:
//
//   node benchmarks/search_node.js INDEX_FOLDER [DEPTH [ENGINE]] < queries.json > results.json
//
// ENGINE: the engine's file to run, by default the source; benchmarks/parity.py gives it the
// engine as judge build publishes it (without comments: judge/site/build.py, published_script).
//
// queries.json: [[query, lang], ...]; each result: {query, lang, plan (the plan in one line,
// as judge search writes it), rows (the rows of every result, best first), scores (of the first 10),
// total, complete, error (a query that cannot be read), ms (the search's time)}.
"use strict";

const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const { Engine } = require(process.argv[4] ? path.resolve(process.argv[4])
  : path.join(__dirname, "..", "site_templates", "assets", "search-engine.js"));

const folder = process.argv[2];
const depth = Number(process.argv[3] || 0); // results kept per query (0: every one)

function read(name) {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(folder, name + ".gz"))));
}

const files = { read: 0 };
function load(name) {
  files.read += 1;
  return Promise.resolve(read(name));
}

async function main() {
  const meta = read("meta.json");
  const input = JSON.parse(fs.readFileSync(0, "utf8"));
  const engine = new Engine(meta, load);
  const out = [];
  for (const [query, lang] of input) {
    const started = process.hrtime.bigint();
    try {
      const found = await engine.search(query, lang);
      const rows = depth ? found.rows.slice(0, depth) : found.rows;
      out.push({ query, lang, plan: found.plan.describe(),
        rows: rows.map((r) => r[1]),
        scores: rows.slice(0, 10).map((r) => r[0]),
        total: found.total, complete: found.complete, query_read: found.query,
        corrections: found.corrections,
        ms: Number(process.hrtime.bigint() - started) / 1e6 });
    } catch (error) {
      out.push({ query, lang, error: String(error.message || error),
        ms: Number(process.hrtime.bigint() - started) / 1e6 });
    }
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack || error) + "\n");
  process.exit(1);
});
