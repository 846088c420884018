// Turns every grammar file under src/ (<name>.peggy) into its parser, written beside it as
// <name>.generated.ts, before tsc runs. The parsers are generated at each build, never committed:
// the grammar is the source. peggy's output is plain JavaScript; `@ts-nocheck` lets tsc compile
// it as a module, and the hand-written wrapper beside each grammar gives it its types.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import peggy from 'peggy';

function grammarsUnder(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...grammarsUnder(path));
    else if (name.endsWith('.peggy')) found.push(path);
  }
  return found;
}

for (const file of grammarsUnder('src')) {
  const grammar = readFileSync(file, 'utf8');
  let source;
  try {
    source = peggy.generate(grammar, { output: 'source', format: 'es', grammarSource: file });
  } catch (err) {
    const where = err.location ? `${file}:${err.location.start.line}:${err.location.start.column}` : file;
    console.error(`${where}: ${err.message}`);
    process.exit(1);
  }
  writeFileSync(file.replace(/\.peggy$/, '.generated.ts'), `// @ts-nocheck\n${source}`);
}
