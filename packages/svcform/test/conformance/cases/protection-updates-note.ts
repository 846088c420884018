import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';
import { AGENTS_DEP } from './package-policy.js';

const NOTE = '/api/endpoint/protection_updates_note';

/** A package policy per note: a note is named by its policy. */
const policy = (name: string) => `apiVersion: svcform/v1
kind: PackagePolicy
metadata:
  name: ${name}
spec:
  name: conformance-notes-${name}
  policy_ids: [dep-agents]
  package: {name: system, version: 1.60.0}
`;

const note = (name: string, text: string) => `apiVersion: svcform/v1
kind: ProtectionUpdatesNote
metadata:
  name: ${name}
spec:
  package_policy_id: ${name}
  note: ${text}
`;

export const protectionUpdatesNote: ConformanceCase = {
  kind: 'ProtectionUpdatesNote',
  deps: [AGENTS_DEP, policy('conf-a'), policy('conf-b'), policy('keep-secret')].join('---\n'),
  a: note('conf-a', 'Protection updates held at the last tested release until the quarterly review'),
  b: note('conf-b', 'Follows the latest updates'),
  s: note('keep-secret', '${env:CONFORMANCE_SECRET_PROTECTIONUPDATESNOTE}'),
  secret: { env: 'CONFORMANCE_SECRET_PROTECTIONUPDATESNOTE', pointer: '/spec/note' },
  edit: {
    pointer: '/spec/note',
    value: 'Changed in the UI',
    async apply(emu) {
      await ok(call(emu, 'POST', `${NOTE}/conf-a`, { note: 'Changed in the UI' }), 'edit the note');
    },
    async read(emu) {
      return (await ok(call(emu, 'GET', `${NOTE}/conf-a`), 'read the note')).body.note;
    },
  },
  oneField: 'a note is its text; package_policy_id is its identity',
  async remove(emu, name, space) {
    // There is no delete route: an empty note is what removing means.
    await ok(call(emu, 'POST', `${space === 'default' ? '' : `/s/${space}`}${NOTE}/${enc(name)}`, { note: '' }), `empty the note of ${name}`);
  },
  // No list route: one GET per package policy of the space (each sample has its own), and the
  // package policies' own listing when the plan has not read it already.
  reads: { [`${NOTE}/:package_policy_id`]: (n) => n, '/api/fleet/package_policies': onePage },
};
