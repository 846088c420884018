#!/usr/bin/env node
// The query parsers on real queries that are not rules: the hunts of a checkout of the public
// detection-rules repository (hunting/**/*.toml, each with a `query` list in the languages its
// `language` list names). Nothing validates a hunt on a server, so a refused query is either a
// construct the parsers lag behind (a bug here: rules may use it too) or a mistake in the hunt;
// the output names each with its place and message, to be judged by hand against the language's
// grammar. osquery SQL (`SQL`, and queries that open with SELECT) is not a language of rules and
// is skipped. Needs `npm run build`.
//
//   node packages/query/scripts/hunting-queries.mjs DETECTION_RULES_CHECKOUT
//
// Exit code: 0 (a refusal is a finding to read, not a failure of the script); 2 on bad usage.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { loadLanguage } from '../dist/src/languages.js';

const checkout = process.argv[2];
if (!checkout) {
  console.error('usage: node packages/query/scripts/hunting-queries.mjs DETECTION_RULES_CHECKOUT');
  process.exit(2);
}
/** The hunts' names of languages, as the rules' `language` values name them. */
const LANGUAGES = { 'ES|QL': 'qlang', EQL: 'eql', KQL: 'kuery', Lucene: 'lucene' };

function tomlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? tomlFiles(path) : entry.name.endsWith('.toml') ? [path] : [];
  });
}

const parsers = new Map();
const counts = {};
let refused = 0;
for (const file of tomlFiles(join(checkout, 'hunting'))) {
  const hunt = parseToml(readFileSync(file, 'utf8')).hunt ?? {};
  const languages = (hunt.language ?? []).map((name) => LANGUAGES[name]).filter(Boolean);
  for (const [index, written] of (hunt.query ?? []).entries()) {
    // Some hunts open a query with the word `sql` left over from a Markdown code fence.
    const query = written.replace(/^\s*sql\n/, '');
    if (/^\s*select\b/i.test(query) || languages.length === 0) continue;
    // A hunt of several languages lists its queries in no fixed order: ES|QL opens with a source
    // command, EQL with an event category and `where` or `sequence`.
    const language = languages.length === 1 ? languages[0] : /^\s*(from|row|ts)\b/i.test(query) ? 'qlang' : languages.find((l) => l !== 'qlang') ?? languages[0];
    if (!parsers.has(language)) parsers.set(language, await loadLanguage(language));
    counts[language] = (counts[language] ?? 0) + 1;
    const outcome = parsers.get(language).parse(query);
    if (outcome.ok) continue;
    refused++;
    const { offset, message } = outcome.problem;
    const line = query.slice(0, offset).split('\n').length;
    console.log(`${relative(checkout, file)} query ${index + 1} (${language}), line ${line} of the query: ${message}`);
    console.log(`  ${query.slice(Math.max(0, offset - 60), offset).replace(/\s+/g, ' ')} <here> ${query.slice(offset, offset + 40).replace(/\s+/g, ' ')}`);
  }
}
console.log(`hunting queries read: ${Object.entries(counts).map(([l, n]) => `${n} ${l}`).join(', ')}; refused: ${refused}`);
