import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

const LONG_QUERY = 'event.category:process and event.type:start and process.name:(nltest.exe or dsquery.exe) and not user.name:SYSTEM';

const rule = (query: string) =>
  `apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: trust-discovery}\nspec:\n  type: query\n  name: Trust discovery\n  description: Found by the review test.\n  severity: high\n  risk_score: 73\n  enabled: true\n  index: [logs-*]\n  query: '${query}'\n  actions:\n    - {id: soc-chat, group: default, action_type_id: .chat, params: {message: fired}}\n  exceptions_list:\n    - {id: trusted, list_id: trusted-admins, type: detection, namespace_type: single}\n`;
// The webhook's URL and a header come from the environment: shown as (sensitive), whatever their length.
const CONNECTOR = "apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: soc-chat}\nspec:\n  name: Chat\n  connector_type_id: .chat\n  secrets:\n    webhookUrl: ${env:CHAT_URL}\n";
const EXCEPTIONS = 'apiVersion: svcform/v1\nkind: ExceptionList\nmetadata: {name: trusted-admins}\nspec:\n  name: Trusted admins\n  description: Admins\n  type: detection\n';

describe('reviewable plans: a create shows what it makes, a long string changes word by word', () => {
  let emu: RunningEmulator;
  let dir: string;
  const env = { CHAT_URL: 'https://chat.example.com/hooks/very-secret-token' };
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-review-'));
    writeFileSync(join(dir, 'rule.yaml'), rule(LONG_QUERY));
    writeFileSync(join(dir, 'chat.yaml'), CONNECTOR);
    writeFileSync(join(dir, 'exceptions.yaml'), EXCEPTIONS);
  });
  after(() => emu.stop());

  it('text: a new rule shows its query, language, severity, risk score, enabled, actions and exceptions; never a secret', async () => {
    const run = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(run.code, 0, run.err);
    const block = run.out.slice(run.out.indexOf('+ create Rule/trust-discovery'));
    assert.ok(
      block.startsWith(
        [
          '+ create Rule/trust-discovery (space default)',
          '    spec.name: "Trust discovery"',
          '    spec.type: "query"',
          `    spec.query: ${JSON.stringify(LONG_QUERY)}`,
          '    spec.language: "kuery"',
          '    spec.severity: "high"',
          '    spec.risk_score: 73',
          '    spec.enabled: true',
          '    spec.actions:',
          '      - id: soc-chat',
          '        action_type_id: .chat',
          '        group: default',
          '    spec.exceptions_list:',
          '      - list_id: trusted-admins',
          '        type: detection',
          '',
        ].join('\n'),
      ),
      run.out,
    );
    // A kind without a declared list shows every field; secrets are write-only and never shown.
    assert.match(run.out, /\+ create Connector\/soc-chat \(space default\)\n {4}spec\.name: "Chat"\n {4}spec\.connector_type_id: "\.chat"\n {4}spec\.config: \{\}\n/);
    assert.doesNotMatch(run.out, /very-secret-token|params|fired/);
  });

  it('Markdown: the create with its fields as added lines in the collapsed diff', async () => {
    const run = await cli(['plan', dir, '--url', emu.url, '--format', 'markdown'], env);
    assert.equal(run.code, 0, run.err);
    assert.ok(run.out.includes(`+ create Rule/trust-discovery (space default)\n+   spec.name: "Trust discovery"\n+   spec.type: "query"\n+   spec.query: ${JSON.stringify(LONG_QUERY)}\n+   spec.language: "kuery"\n+   spec.severity: "high"\n`), run.out);
    assert.ok(run.out.includes('+   spec.enabled: true\n+   spec.actions:\n+     - id: soc-chat\n'), run.out);
    assert.doesNotMatch(run.out, /very-secret-token/);
  });

  it('a long query changes word by word, in text and Markdown; the saved plan shows the same', async () => {
    const applied = await cli(['apply', dir, '--url', emu.url], env);
    assert.equal(applied.code, 0, applied.out + applied.err);
    writeFileSync(join(dir, 'rule.yaml'), rule(LONG_QUERY.replace('dsquery.exe', 'dsquery.exe or adfind.exe').replace('SYSTEM', 'svc_backup')));
    const text = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(text.code, 0, text.err);
    assert.ok(
      text.out.includes('~ update Rule/trust-discovery (space default)\n    spec.query:\n      ~ … or dsquery.exe {+or adfind.exe+}) and not user.name:[-SYSTEM-]{+svc_backup+}\n'),
      text.out,
    );
    const markdown = await cli(['plan', dir, '--url', emu.url, '--format', 'markdown'], env);
    assert.ok(markdown.out.includes('  spec.query:\n~   … or dsquery.exe {+or adfind.exe+}) and not user.name:[-SYSTEM-]{+svc_backup+}\n'), markdown.out);
    const saved = join(dir, 'plan.json');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--out', saved], env)).code, 0);
    const shown = await cli(['show', saved]);
    assert.ok(shown.out.includes('dsquery.exe {+or adfind.exe+}) and not user.name:[-SYSTEM-]{+svc_backup+}'), shown.out);
  });
});
