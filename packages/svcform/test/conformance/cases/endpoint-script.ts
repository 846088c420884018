import { call, multipartForm } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase, type Emu } from './common.js';

const BASE = '/api/endpoint/scripts_library';

/** The script of `name` in `space`, from the listing (ids are the server's). */
async function scriptNamed(emu: Emu, name: string, space = 'default'): Promise<Record<string, any> | undefined> {
  const prefix = space === 'default' ? '' : `/s/${space}`;
  const listed = (await ok(call(emu, 'GET', `${prefix}${BASE}?pageSize=1000`), 'list scripts')).body.data as Array<Record<string, any>>;
  return listed.find((s) => s.name === name);
}

const script = (name: string, file: string, extra = '') => `apiVersion: svcform/v1
kind: EndpointScript
metadata:
  name: ${name}
spec:
  platform: [linux, macos]
  file_type: script
  file: scripts/${file}
  tags: [dataCollection, troubleshooting]
  description: Collects what ${name} needs
${extra}`;

export const endpointScript: ConformanceCase = {
  kind: 'EndpointScript',
  deps: '',
  files: {
    'scripts/a.sh': '#!/bin/sh\nuname -a\nuptime\n',
    'scripts/b.sh': '#!/bin/sh\nss -tlnp\n',
    'scripts/s.sh': '#!/bin/sh\nid\n',
  },
  a: script('conf-a', 'a.sh', '  instructions: Run it without arguments\n'),
  b: script('conf-b', 'b.sh'),
  s: script('keep-secret', 's.sh', '  example: ${env:CONFORMANCE_SECRET_ENDPOINTSCRIPT}\n'),
  secret: { env: 'CONFORMANCE_SECRET_ENDPOINTSCRIPT', pointer: '/spec/example' },
  edit: {
    pointer: '/spec/instructions',
    value: 'Changed in the UI',
    async apply(emu) {
      const found = await scriptNamed(emu, 'conf-a');
      await ok(call(emu, 'PATCH', `${BASE}/${enc(found!.id)}`, undefined, { raw: multipartForm({ instructions: 'Changed in the UI' }) }), 'edit conf-a');
    },
    async read(emu) {
      return (await scriptNamed(emu, 'conf-a'))?.instructions;
    },
  },
  change: { pointer: '/spec/platform', value: ['linux'] },
  async remove(emu, name, space) {
    const found = await scriptNamed(emu, name, space);
    if (found) await ok(call(emu, 'DELETE', `${space === 'default' ? '' : `/s/${space}`}${BASE}/${enc(found.id)}`), `delete ${name}`);
  },
  // One listing of up to 1,000 scripts a page: it carries each file's hash, so nothing is downloaded.
  reads: { [BASE]: onePage },
};
