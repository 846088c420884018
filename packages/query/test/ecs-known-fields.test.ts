import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ecsKnownFields, parseKnownFields } from '../src/ecs-fields.js';

/**
 * Known fields with open prefixes (src/ecs-fields.ts): `labels.*` takes any child at any depth,
 * and nothing else matches it. The prefix is looked up at each dot of the name, which must agree
 * with asking every prefix whether the name starts with it.
 */
describe('known ECS fields with open prefixes', () => {
  const known = parseKnownFields(['# comment', 'host.name', 'labels.*', 'process.pe.imports.*', '', 'process.pe.imports'].join('\n'));

  it('takes named fields, and children of an open prefix at any depth', () => {
    for (const name of ['host.name', 'labels.env', 'labels.a.b.c', 'process.pe.imports.name', 'process.pe.imports.a.b', 'process.pe.imports']) {
      assert.equal(known.has(name), true, name);
    }
  });

  it('refuses the prefix itself, names that only share its letters, and names under no prefix', () => {
    for (const name of ['labels', 'labels.', 'labelsx.env', 'xlabels.env', 'process.pe', 'process.pe.importsx.a', 'host', 'host.name.x', '.labels.a', '']) {
      assert.equal(known.has(name), name === 'labels.', name);
    }
  });

  it('answers as a scan of every open prefix does, for the shipped list', () => {
    const shipped = ecsKnownFields();
    const scan = (name: string) => shipped.names.has(name) || shipped.open.some((prefix) => name.startsWith(prefix));
    const names = [...shipped.open.flatMap((p) => [p, `${p}x`, `${p}x.y`, p.slice(0, -1), `${p.slice(0, -1)}x.y`]), ...[...shipped.names].slice(0, 500), 'okta.target.id', 'aws.cloudtrail.user_identity.arn', 'process.Ext.api.name'];
    for (const name of names) assert.equal(shipped.has(name), scan(name), name);
  });
});
