import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svcform } from './harness.js';

/**
 * A value the server refuses in a list of its type fails validate (and so every command) at its
 * place, not apply after the merge (wire-facts 3.2: "the value is validated against the list type
 * in the search backend (a bad IP gives 400)").
 */
describe('ValueList values checked against the list type', () => {
  const listOf = (type: string, values: string) =>
    `apiVersion: svcform/v1\nkind: ValueList\nmetadata:\n  name: blocked\nspec:\n  name: Blocked\n  description: Values used by detection rules.\n  type: ${type}\n  items_file: values.txt\n`.replace('values.txt', values);

  it('a bad value of an items_file is named at its line of that file; plan and apply stop there, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-list-types-'));
    writeFileSync(join(dir, 'ranges.yaml'), listOf('ip_range', 'ranges.txt'));
    // Line 3 is blank (not a value), line 4 a /33 and line 6 a host name.
    writeFileSync(join(dir, 'ranges.txt'), '10.0.0.0/8\n192.0.2.1-192.0.2.9\n\n198.51.100.0/33\n2001:db8::/32\nhost.example.com\n');
    const manifest = join(dir, 'ranges.yaml');
    const values = join(dir, 'ranges.txt');
    const run = await svcform(['validate', manifest, '--root', dir]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(
      run.lines.map((d) => `${d.file}:${d.line}:${d.col}: ${d.text}`),
      [
        `${values}:4:1: ValueList/blocked: "198.51.100.0/33" is not a CIDR: an IPv4 prefix is 0 to 32 bits, not /33: the server refuses it in a list of type ip_range [and 1 more: ${values}:6]`,
      ],
    );
    const json = JSON.parse((await svcform(['validate', manifest, '--root', dir, '--json'])).stdout);
    assert.deepEqual(
      json.diagnostics.map((d: any) => `${d.file}:${d.line} ${d.message}`),
      [
        `${values}:4 "198.51.100.0/33" is not a CIDR: an IPv4 prefix is 0 to 32 bits, not /33: the server refuses it in a list of type ip_range`,
        `${values}:6 "host.example.com" is not an IP address, a CIDR or a range a-b of addresses: the server refuses it in a list of type ip_range`,
      ],
    );
    // Nothing is written before every manifest validates: the URL answers nothing, and is never asked.
    for (const command of ['plan', 'apply']) {
      const refused = await svcform([command, manifest, '--root', dir, '--url', 'http://127.0.0.1:9']);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /ranges\.txt:4:1: ValueList\/blocked: "198\.51\.100\.0\/33"/);
      assert.doesNotMatch(refused.stderr, /ECONNREFUSED|cannot reach/i);
    }
  });

  it('a valid file of every checked type passes, and a type svcform cannot judge for certain takes anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-list-types-'));
    const good: Record<string, string[]> = {
      ip: ['192.0.2.1', '2001:db8::1', '::ffff:192.0.2.1'],
      ip_range: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.1-192.0.2.9', '192.0.2.7'],
      integer: ['42', '-2147483648', '4.2'],
      long: ['9223372036854775807', '-9223372036854775808'],
      double: ['3.14', '-1e10', '1d'],
      boolean: ['true', 'false'],
      date: ['2026-01-01T00:00:00Z', '1700000000000'],
      keyword: ['192.0.2.300', 'anything at all'],
      long_range: ['anything'],
    };
    for (const [type, values] of Object.entries(good)) {
      writeFileSync(join(dir, `${type}.yaml`), listOf(type, `${type}.txt`).replace('name: blocked', `name: ${type.replace('_', '-')}`));
      writeFileSync(join(dir, `${type}.txt`), values.join('\n') + '\n');
    }
    const run = await svcform(['validate', dir, '--root', dir]);
    assert.equal(run.code, 0, run.stderr);
  });
});
