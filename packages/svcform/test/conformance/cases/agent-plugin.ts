import { call } from '@svcform/emulator/testing.js';
import { ok, enc, onePage, type ConformanceCase } from './common.js';

const PLUGINS = '/api/agent_builder/plugins';
// Archives the emulator serves (packages/emulator/src/areas/agent-builder/plugin-fixtures.ts).
const HUNT = 'https://github.com/svcform/agent-plugins/tree/main/plugins/threat-hunting';
const HUNT_OLD = 'https://github.com/svcform/agent-plugins/tree/v1.1.0/plugins/threat-hunting';

async function pluginNamed(emu: { url: string }, name: string): Promise<Record<string, any>> {
  const found = (await ok(call(emu, 'GET', PLUGINS), 'list plugins')).body.results.find((p: any) => p.name === name);
  if (!found) throw new Error(`no plugin named ${name}`);
  return found;
}

export const agentPlugin: ConformanceCase = {
  kind: 'AgentPlugin',
  deps: '',
  a: `apiVersion: svcform/v1
kind: AgentPlugin
metadata:
  name: conf-a
spec:
  url: ${HUNT}
`,
  b: `apiVersion: svcform/v1
kind: AgentPlugin
metadata:
  name: conf-b
spec:
  url: https://github.com/svcform/agent-plugins/blob/main/plugins/incident-comms/.claude-plugin/plugin.json
`,
  // A private archive's download token in its URL.
  s: `apiVersion: svcform/v1
kind: AgentPlugin
metadata:
  name: keep-secret
spec:
  url: 'https://plugins.example.com/triage-basics-1.0.0.zip?token=\${env:CONFORMANCE_SECRET_AGENTPLUGIN}'
`,
  secret: { env: 'CONFORMANCE_SECRET_AGENTPLUGIN', pointer: '/spec/url' },
  // There is no update route: someone reinstalled conf-a from an older tag.
  edit: {
    pointer: '/spec/url',
    value: HUNT_OLD,
    async apply(emu) {
      const a = await pluginNamed(emu, 'conf-a');
      await ok(call(emu, 'DELETE', `${PLUGINS}/${enc(a.id)}?force=true`), 'uninstall conf-a');
      await ok(call(emu, 'POST', `${PLUGINS}/install`, { url: HUNT_OLD, plugin_name: 'conf-a' }), 'reinstall conf-a');
    },
    async read(emu) {
      return (await pluginNamed(emu, 'conf-a')).source_url;
    },
  },
  oneField: 'a plugin manifest sets only its url',
  async remove(emu, name) {
    const p = await pluginNamed(emu, name);
    await ok(call(emu, 'DELETE', `${PLUGINS}/${enc(p.id)}?force=true`), `uninstall ${name}`);
  },
  reads: { [PLUGINS]: onePage },
};
