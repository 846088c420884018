import { call } from '@svcform/emulator/testing.js';
import { enc, ok, onePage, type ConformanceCase, type Emu } from './common.js';

async function template(emu: Emu, id: string): Promise<any> {
  return (await ok(call(emu, 'GET', `/api/timeline?template_timeline_id=${enc(id)}`), `read template ${id}`)).body;
}

export const timelineTemplate: ConformanceCase = {
  kind: 'TimelineTemplate',
  deps: '',
  a: `apiVersion: svcform/v1
kind: TimelineTemplate
metadata:
  name: conf-a
spec:
  title: Process investigation
  description: Processes of the alerted host, parent and child alike.
  kqlMode: filter
  indexNames: [logs-endpoint.events.process-*]
  columns:
    - {id: '@timestamp', columnHeaderType: not-filtered}
    - {id: host.name, columnHeaderType: not-filtered}
    - {id: process.command_line, columnHeaderType: not-filtered}
  dataProviders:
    - id: host-name-template
      name: host.name
      enabled: true
      excluded: false
      kqlQuery: ''
      type: template
      queryMatch: {field: host.name, value: '{host.name}', operator: ':'}
      and: []
`,
  b: `apiVersion: svcform/v1
kind: TimelineTemplate
metadata:
  name: conf-b
spec:
  title: Network investigation
  kqlMode: search
`,
  s: `apiVersion: svcform/v1
kind: TimelineTemplate
metadata:
  name: keep-secret
spec:
  title: Escalation template
  description: 'Escalate with \${env:CONFORMANCE_SECRET_TIMELINETEMPLATE}'
`,
  secret: { env: 'CONFORMANCE_SECRET_TIMELINETEMPLATE', pointer: '/spec/description' },
  edit: {
    pointer: '/spec/kqlMode',
    value: 'search',
    async apply(emu) {
      const t = await template(emu, 'conf-a');
      await ok(call(emu, 'PATCH', '/api/timeline', { timeline_id: t.savedObjectId, version: t.version, timeline: { kqlMode: 'search' } }), 'change conf-a in the app');
    },
    async read(emu) {
      return (await template(emu, 'conf-a')).kqlMode;
    },
  },
  change: { pointer: '/spec/title', value: 'Process tree investigation' },
  async remove(emu, name) {
    const t = await template(emu, name);
    await ok(call(emu, 'DELETE', '/api/timeline', { saved_object_ids: [t.savedObjectId] }), `delete template ${name}`);
  },
  reads: { '/api/timelines': onePage },
};
