import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ruleManifest } from '../../bench/generate.js';
import { displayPath, parseManifestText, type LoadedDoc } from '../../src/manifest/load.js';
import { expandPaths, loadFiles } from '../../src/manifest/files.js';
import { assertSameAsFullParser } from '../helpers/yaml-readers.js';
import type { DocPath } from '../../src/manifest/types.js';
import { isLeft, parseFast } from '../../src/manifest/yaml-fast.js';

const ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(name)) out.push(full);
  }
  return out;
}

/** Whether the fast reader reads every document of `text` itself. */
function allFast(text: string): boolean {
  const fast = parseFast(text);
  return !!fast && !fast.documents.some(isLeft);
}


/** Snippets inside the fast reader's subset (it must read them, and read them right). */
const SUPPORTED: Record<string, string> = {
  'words that may or may not be null or a boolean': ['n', 'N', 'no', 'nul', 'null', 'Null', 'NULL', 'nULL', 'nulls', 't', 'true', 'True', 'TRUE', 'tRUE', 'truex', 'f', 'false', 'False', 'FALSE', 'fALSE', 'falsy', '~', '~~', 'NaN', 'nan', 'Infinity', 'name', 'tags', 'threat', 'false_positives']
    .map((w, i) => `k${i}: ${w}\n`)
    .join(''),
  'core schema scalars': 'a: 1\nb: -2\nc: +3\nd: 0o17\ne: 0x1F\nf: 1.5\ng: .5\nh: 1e3\ni: -.inf\nj: .NaN\nk: ~\nl: null\nm: Null\nn: TRUE\no: False\np: yes\nq: 2026-01-01\nr: 1_000\ns: 0.\nt: 12:30\nu: 007\nv: 1.50\nw: 9007199254740993\n',
  'quoted scalars and escapes': 'a: "x\\ty\\u00e9\\x41\\"q\\\\"\nb: \'it\'\'s\'\nc: "a # not a comment"\nd: a#b\ne: a # comment\nf: "\\/\\ \\N\\_"\ng: ""\nh: \'\'\n',
  'indentless sequence in a mapping': 'list:\n- a\n- b\nnext: 1\n',
  'mappings in sequences': 'list:\n  - a: 1\n    b: 2\n  - c: 3\n  -   d: 4\n      e: 5\n',
  'literal and folded block scalars': 'lit: |\n  line1\n    more\n\n  line3\n\n\nfold: >-\n  a\n  b\n\n  c\n\n\n  d\nend: 1\n',
  'block scalar content that looks like YAML': 'lit: |-\n  # not a comment\n  x: y\n  ---not a marker\n# real comment\nz: 1\n',
  'sequence items of every shape': 'seq:\n  - |\n    block item\n  - >\n    folded\n    item\n  - "q"\n  - [1, 2]\n  - {a: b}\n  - plain\n',
  'flow collections': 'flow: {a: 1, b: [x, y, {c: d}], "q k": \'v\', e: -1, f: http://x.y/z}\nf2: [ a , b ]\nf3: []\nf4: {}\nf5: [a b, c d]\nf6: {a: "x, y", b: \'[z]\'}\n',
  'documents and separators': '# leading comment\n---\nk: v\n--- # second\nk: w\n---\n---\nk: x\n---\n',
  'an indented root mapping': '  indented: root\n  other: 2\n',
  'empty values': 'a:\nb: ~\nc:   # comment\nd: x\n',
  'colons and hashes inside plain scalars': 'url: https://example.com:8080/path?q=1#frag\nt: "managed-by:svcform"\nu: managed-by:svcform\nv: a:b\n',
  'no final newline (block scalar)': 'a: |\n  no newline at eof',
  'no final newline (plain)': 'a: x',
  'keys with spaces, dots, slashes and quotes': 'key with spaces: v\nkey.dots: v\nkey/slash: v\n"k:colon": v\n\'single\': 2\n',
  'comments after values': 'a: 1 # one\nb: [1, 2] # two\nc: "x" # three\nd: {e: f}   # four\ne: |  # five\n  text\n',
  'deep nesting': 'a:\n  b:\n    c:\n      - d\n      - e: f\n        g: h\n  i: j\n',
  'strings that look almost like numbers': 'a: 0x\nb: 0o9\nc: 1e\nd: .e1\ne: 1.2.3\nf: --\ng: [-1, -.5, +2]\n',
  'trailing spaces in block scalars': 'a: |\n  trailing   \n  x  \nb: >\n  trailing   \n  x  \n',
  'folded paragraphs': 'a: >-\n  one\n\n\n\n  two\n',
  'a block scalar ending at a document separator': 'a: |\n  x\n---\nb: 1\n',
  'quoted keys with space before the colon, unicode escapes': '"a" : 1\n\'b\'  : "\\u00e9\\U0001F600"\n',
  CRLF: 'a: b\r\nc: |\r\n  x\r\n\r\n  y\r\n',
  'multi-line plain scalar': 'a: multi\n  line plain\n',
  'multi-line quoted scalar': 'a: "multi\n  line"\n',
  'explicit indentation indicator': 'x: |2\n   a\n',
  'keep chomping': 'x: |+\n  a\n\n',
  'leading empty line in a block scalar': 'x: |\n\n  a\n',
  'more-indented folded line': 'x: >\n  a\n    more\n  b\n',
  'multi-line plain scalars, folded': 'a: one\n  two\n\n  three # c\nb:\n  on the next\n  line\nc:\n- item\n  goes on\n',
  'multi-line quoted scalars with escapes and empty lines': 'a: "x \\\n  y\n\n  z\\t "\nb: \'it\'\'s\n  folded   \n\n\n  here\'\n',
  'block scalars: indicators, chomping, more-indented and spaces-only lines': 'a: |2-\n   lead\n  x\nb: >+\n  a\n    more\n\n  b\n\n\nc: |\n  x\n     \n  y\nd: >\n\n  after a blank\n',
  'tabs inside quoted and block scalars': 'a: "x\ty"\nb: |\n  \tindented by a tab\n  k:\tv\n',
  'a # inside a plain key, after no space': 'a#b: 1\nc: d#e\n',
};

/** Snippets the fast reader must leave to the full parser (errors included: they carry its messages). */
const UNSUPPORTED: Record<string, string> = {
  'duplicate key': 'a: 1\na: 2\n',
  'nested mapping on one line': 'a: b: c\n',
  'bad indentation': 'a: 1\n  b: 2\n',
  'unclosed quote': 'a: "unclosed\nb: 1\n',
  'unclosed flow sequence': 'a: [1, 2\nb: 1\n',
  'root sequence': '- a\n- b\n',
  'root scalar': 'just text\n',
  'anchors and aliases': 'a: &x 1\nb: *x\n',
  tags: 'a: !!str 1\n',
  'complex keys': '? complex\n: v\n',
  tabs: 'a:\tb\n',
  'a tab after a plain value': 'a: b\t\n',
  'a lone carriage return': 'a: b\rc: d\n',
  'less-indented block scalar line': 'x: |\n  a\n b\ny: 1\n',
  directive: '%YAML 1.2\n---\na: 1\n',
  'document end marker': 'a: 1\n...\n',
  'content after ---': '--- a: 1\n',
  'empty flow entry': 'a: [1,,2]\n',
  'trailing comma': 'a: [1, 2,]\n',
  'flow pair in a sequence': 'a: [b: c]\n',
  'non-string keys': '1: x\ntrue: y\n',
  'special keys': '__proto__: x\n<<: {a: 1}\n',
  'reserved characters': 'a: @x\n',
  BOM: '\ufeffa: 1\n',
  'second document is a sequence': 'a: 1\n---\n- x\n',
  // ` #` ends a plain key: the rest of the line is a comment, so the key has no value (an error),
  // even where the comment holds a `: `.
  'a comment inside a plain key': 'a:\n  k: 1\n  key # note: v\n',
  'a comment with a colon after a plain key': 'key # c\': \'v\'\n',
};

describe('parseManifestText: the fast reader agrees with the full YAML parser', () => {
  it('on every manifest of examples/ and test/fixtures/valid, reading each with the fast path', () => {
    const files = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test/fixtures/valid'))];
    assert.ok(files.length >= 18);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assert.ok(allFast(text), `${file} should take the fast path`);
      assertSameAsFullParser(text, file);
    }
  });

  it('on generated rule manifests (the benchmark workload), single and multi-document', () => {
    const docs = Array.from({ length: 40 }, (_, i) => ruleManifest(i, 7));
    for (const [i, doc] of docs.entries()) assertSameAsFullParser(doc, `rule-${i}.yaml`);
    const multi = docs.join('---\n');
    assert.ok(allFast(multi));
    assertSameAsFullParser(multi, 'rules.yaml');
  });

  for (const [name, text] of Object.entries(SUPPORTED)) {
    it(`reads ${name}`, () => {
      assert.ok(allFast(text), 'inside the fast subset');
      assertSameAsFullParser(text, 'snippet.yaml');
    });
  }

  for (const [name, text] of Object.entries(UNSUPPORTED)) {
    it(`leaves ${name} to the full parser`, () => {
      // The whole file, or the document that uses it (the last one of each snippet).
      const fast = parseFast(text);
      assert.ok(fast === undefined || isLeft(fast.documents[fast.documents.length - 1]), 'left to the full parser');
      assertSameAsFullParser(text, 'snippet.yaml');
    });
  }

  it('on every invalid fixture (whichever reader takes it, the answer is the full parser\'s)', () => {
    for (const file of yamlFiles(join(ROOT, 'test/fixtures/invalid'))) assertSameAsFullParser(readFileSync(file, 'utf8'), file);
  });
});

describe('parseManifestText: documents and positions', () => {
  const text = [
    '# header comment', //  1
    'apiVersion: svcform/v1', //  2
    'kind: Rule', //  3
    'metadata:', //  4
    '  name: first', //  5
    'spec:', //  6
    '  tags: [a, b]', //  7
    '  actions:', //  8
    '    - id: soc-chat', //  9
    '      params: {message: hi}', // 10
    '---', // 11
    'apiVersion: svcform/v1', // 12
    'kind: Connector', // 13
  ].join('\n');

  for (const fast of [true, false]) {
    it(`every value keeps its source position (${fast ? 'fast reader' : 'full parser'})`, () => {
      const { docs, diagnostics } = parseManifestText(text, join(ROOT, 'rules/a.yaml'), { fast });
      assert.deepEqual(diagnostics, []);
      assert.equal(docs.length, 2);
      const [first, second] = docs;
      assert.deepEqual(first.start, { file: 'rules/a.yaml', line: 2, col: 1 });
      assert.deepEqual(second.start, { file: 'rules/a.yaml', line: 12, col: 1 });
      assert.equal(second.index, 1);
      const at = (doc: LoadedDoc, path: DocPath) => `${doc.posOf(path).line}:${doc.posOf(path).col}`;
      assert.equal(at(first, ['metadata', 'name']), '5:3');
      assert.equal(at(first, ['spec', 'tags', 1]), '7:13');
      assert.equal(at(first, ['spec', 'actions', 0]), '9:7');
      assert.equal(at(first, ['spec', 'actions', 0, 'params', 'message']), '10:16');
      assert.equal(at(first, ['spec', 'actions', 3, 'id']), '8:3', 'a missing item answers with its parent');
      assert.equal(at(second, ['spec', 'name']), '12:1', 'a missing field of a document answers with its start');
      assert.equal(first.dir, join(ROOT, 'rules'));
    });
  }

  it('names what a non-mapping document is', () => {
    assert.match(parseManifestText('- a\n', 'x.yaml').diagnostics[0].message, /must be a mapping .* not a list$/);
    assert.match(parseManifestText('text\n', 'x.yaml').diagnostics[0].message, /not a string$/);
    assert.match(parseManifestText('42\n', 'x.yaml').diagnostics[0].message, /not a scalar$/);
  });

  it('skips empty documents (a trailing ---, a comment-only file)', () => {
    assert.deepEqual(parseManifestText('a: 1\n---\n', 'x.yaml').docs.length, 1);
    assert.deepEqual(parseManifestText('# only a comment\n', 'x.yaml'), { docs: [], diagnostics: [] });
    assert.deepEqual(parseManifestText('', 'x.yaml'), { docs: [], diagnostics: [] });
  });

  it('points YAML errors at the mistake: the opening of an unclosed flow mapping or quote, the over-indented line', () => {
    const first = (t: string) => {
      const d = parseManifestText(t, 'x.yaml').diagnostics;
      return d.map((x) => `${x.pos.line}:${x.pos.col} ${x.message}`);
    };
    assert.deepEqual(first('a: {b: 1\nc: 2\n'), ['1:4 invalid YAML: the flow mapping that starts here is not closed with } (or a line inside it is not indented enough)']);
    assert.deepEqual(first("a: 'abc\nb: 3\nc: 4\n"), ['1:4 invalid YAML: the quoted string that starts here is never closed (it runs on to line 4)']);
    assert.deepEqual(first('a: 1\n b: 2\n'), ['2:2 invalid YAML: this line is indented more than the keys above it, or the value above runs on into it: check the indentation']);
    assert.deepEqual(first('a: 1\nb: @x\n'), ['2:4 invalid YAML: Plain value cannot start with reserved character @']);
  });
});

describe('expandPaths and loadFiles', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-load-'));
    mkdirSync(join(dir, 'b', 'deep'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'node_modules', 'pkg'), { recursive: true });
    for (const f of ['a.yaml', 'b/z.yml', 'b/deep/c.YAML', 'svcform.yaml', 'notes.txt', '.git/config.yaml', 'node_modules/pkg/x.yaml', '.hidden.yaml']) {
      writeFileSync(join(dir, f), 'apiVersion: svcform/v1\n');
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads directories recursively in sorted order: *.yaml and *.yml only, without svcform.yaml, hidden entries or node_modules', () => {
    const { files, diagnostics } = expandPaths([dir]);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(files, [join(dir, 'a.yaml'), join(dir, 'b', 'deep', 'c.YAML'), join(dir, 'b', 'z.yml')]);
  });

  it('leaves out a folder marked with .svcform-skip (YAML that is not svcform\'s), unless it is named as a PATH', () => {
    const k8s = mkdtempSync(join(tmpdir(), 'svcform-skip-'));
    try {
      mkdirSync(join(k8s, 'kubernetes'));
      writeFileSync(join(k8s, 'a.yaml'), 'apiVersion: svcform/v1\n');
      writeFileSync(join(k8s, 'kubernetes', 'deployment.yaml'), 'apiVersion: apps/v1\n');
      assert.deepEqual(expandPaths([k8s]).files, [join(k8s, 'a.yaml'), join(k8s, 'kubernetes', 'deployment.yaml')]);
      writeFileSync(join(k8s, 'kubernetes', '.svcform-skip'), '');
      assert.deepEqual(expandPaths([k8s]).files, [join(k8s, 'a.yaml')]);
      assert.deepEqual(expandPaths([join(k8s, 'kubernetes')]).files, [join(k8s, 'kubernetes', 'deployment.yaml')]);
    } finally {
      rmSync(k8s, { recursive: true, force: true });
    }
  });

  it('follows links to folders and files, names a broken link to a manifest, and takes a named pipe as a manifest (reading it says what it is)', () => {
    const linked = mkdtempSync(join(tmpdir(), 'svcform-links-'));
    try {
      mkdirSync(join(linked, 'real'));
      writeFileSync(join(linked, 'real', 'r.yaml'), 'apiVersion: svcform/v1\n');
      symlinkSync(join(linked, 'real'), join(linked, 'folder-link'));
      symlinkSync(join(linked, 'real', 'r.yaml'), join(linked, 'file-link.yaml'));
      symlinkSync(join(linked, 'gone.yaml'), join(linked, 'broken.yaml'));
      symlinkSync(join(linked, 'gone.txt'), join(linked, 'broken.txt'));
      execFileSync('mkfifo', [join(linked, 'pipe.yaml')]);
      const { files, diagnostics } = expandPaths([linked]);
      assert.deepEqual(files, [join(linked, 'file-link.yaml'), join(linked, 'folder-link', 'r.yaml'), join(linked, 'pipe.yaml'), join(linked, 'real', 'r.yaml')]);
      assert.deepEqual(
        diagnostics.map((d) => [d.pos.file, d.message]),
        [[displayPath(join(linked, 'broken.yaml')), 'cannot read: broken symbolic link (its target does not exist)']],
      );
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });

  it('takes a file named explicitly whatever its name, and - for standard input', () => {
    const { files } = expandPaths([join(dir, 'notes.txt'), '-']);
    assert.deepEqual(files, [join(dir, 'notes.txt'), '-']);
  });

  it('loads several files, each document with its own file and positions', () => {
    writeFileSync(join(dir, 'two.yaml'), 'kind: A\n---\nkind: B\n');
    const result = loadFiles([join(dir, 'two.yaml'), join(dir, 'a.yaml')]);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(
      result.docs.map((d) => [(d.value as any).kind ?? (d.value as any).apiVersion, d.start.line]),
      [
        ['A', 1],
        ['B', 3],
        ['svcform/v1', 1],
      ],
    );
  });
});

describe('displayPath: paths as messages show them', () => {
  it('is path.relative for files under the working directory, and the path itself elsewhere, whatever the path\'s form', () => {
    const cwd = process.cwd();
    const cases = [
      join(cwd, 'rules', 'a.yaml'),
      `${cwd}/rules/./a.yaml`,
      `${cwd}/rules/../a.yaml`,
      `${cwd}//rules/a.yaml`,
      `${cwd}/rules/`,
      `${cwd}-other/a.yaml`,
      `${cwd}/..`,
      '/elsewhere/a.yaml',
      'rules/a.yaml',
      cwd,
    ];
    for (const file of cases) {
      const rel = relative(cwd, file);
      assert.equal(displayPath(file), rel && !rel.startsWith('..') ? rel : file, file);
    }
    assert.equal(displayPath('-'), '<stdin>');
  });
});
