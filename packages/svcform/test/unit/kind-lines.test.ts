import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kindLines } from '../../src/manifest/files.js';

/** What a read-ahead of live state starts from (src/manifest/files.ts kindLines). */
const counted = (...files: string[]) => Object.fromEntries(kindLines(files.map((f) => Buffer.from(f))));

describe('kindLines: `kind: Name` lines counted from the bytes of manifest files', () => {
  it('counts a kind line at the start of any line, across files, whatever the line ending', () => {
    assert.deepEqual(counted('apiVersion: svcform/v1\nkind: Rule\n---\nkind: Rule\r\nkind:\tConnector \t\r', 'kind:List'), { Rule: 2, Connector: 1, List: 1 });
  });

  it('ignores indented keys, text after the name, names of other characters, and kind: inside a line', () => {
    assert.deepEqual(counted('  kind: Rule\n', 'kind: Rule x\n', 'kind: \n', 'kind: Rulé\n', 'akind: Rule\n', 'note: the kind: Rule\n', 'kind: Rule2\n'), {});
  });

  it('a name at the very end of a file counts, with or without blanks after it', () => {
    assert.deepEqual(counted('kind: Rule', 'kind: Rule  '), { Rule: 2 });
  });

  it('is not misled by multi-byte characters next to the line', () => {
    assert.deepEqual(counted('description: é\nkind: Rule\nname: ü\n'), { Rule: 1 });
  });
});
