import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { blockRuleYaml } from '../helpers/repo.js';

/**
 * A plan reads live state while the manifests load (cli/read-ahead.ts): at once when little must be
 * parsed, and once the files are nearly parsed when much must be (measured slower with the live
 * state in the heap through the whole parse; files.ts LATE_SHARE, whose timing the unit test of
 * loadFilesYielding checks). Seen from the server: an invalid manifest stops the plan with nothing
 * read but the listing that went out ahead, and a valid plan lists each kind once.
 */
describe('plan reads ahead: at once from a warm cache, once the files are nearly parsed from an empty one', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));

  const window = (n: number) =>
    ['apiVersion: svcform/v1', 'kind: MaintenanceWindow', 'metadata:', `  name: Window ${n}`, 'spec:', '  schedule:', '    custom:', "      start: '2026-11-29T01:00:00Z'", '      duration: 1h', '      recurring: {every: 1w}', ''].join('\n');
  const listings = () => emu.log.all().filter((r) => r.method === 'GET' && r.route === '/api/maintenance_window/_find').length;

  it('an invalid manifest: only the listing read ahead went out and nothing was said, cold or warm; a valid plan lists once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-read-ahead-'));
    for (let n = 0; n < 20; n++) writeFileSync(join(dir, `w${n}.yaml`), window(n));
    const env = { SVCFORM_CACHE_DIR: join(dir, '.cache') };
    const broken = join(dir, 'w0.yaml');
    writeFileSync(broken, window(0).replace('duration: 1h', 'duration: 1 hour'));
    const cold = await cli(['plan', dir, '--url', emu.url, '--no-cache'], env);
    assert.equal(cold.code, 1, cold.out + cold.err);
    assert.equal(listings(), 1, 'every file to parse: the listing went out once they were nearly parsed');
    assert.doesNotMatch(cold.out + cold.err, /Reading live state/, 'and nothing about it was said');
    writeFileSync(broken, window(0));
    emu.log.clear();
    const valid = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(valid.code, 0, valid.out + valid.err);
    assert.match(valid.out, /20 to create/);
    assert.equal(listings(), 1, 'what was read ahead is what the plan used');
    emu.log.clear();
    writeFileSync(broken, window(0).replace('duration: 1h', 'duration: 1 hour'));
    const warm = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(warm.code, 1, warm.out + warm.err);
    assert.equal(listings(), 1, 'one file in twenty to parse: the listing went out ahead');
    assert.doesNotMatch(warm.out + warm.err, /Reading live state/, 'and nothing about it was said');
  });

  it('kinds the read-ahead does not list (a timeline template rules name) are listed beside it, not after its pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-read-ahead-refs-'));
    const rule = (n: number) => blockRuleYaml(`rule-${n}`, ['A rule.'], ['process.name: x']).replace('  severity:', '  timeline_id: team-timeline\n  timeline_title: Team timeline\n  severity:');
    for (let n = 0; n < 5; n++) writeFileSync(join(dir, `r${n}.yaml`), rule(n));
    const env = { SVCFORM_CACHE_DIR: join(dir, '.cache') };
    const first = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(first.code, 0, first.out + first.err);
    emu.log.clear();
    // The rules' listing (read ahead from the cache) is answered after 1.5 s; the templates' must not wait for it.
    const DELAY = 1500;
    await fetch(`${emu.url}/__emulator/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ method: 'GET', path: '^/api/detection_engine/rules/_find$', delayMs: DELAY, times: 1 }] }) });
    const warm = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(warm.code, 0, warm.out + warm.err);
    assert.equal(warm.out, first.out, 'the same plan');
    const log = emu.log.all();
    const rules = log.find((r) => r.method === 'GET' && r.path === '/api/detection_engine/rules/_find');
    const templates = log.find((r) => r.method === 'GET' && r.path === '/api/timelines');
    assert.ok(rules && templates, log.map((r) => `${r.method} ${r.path}`).join('\n'));
    const gap = Date.parse(templates.time) - Date.parse(rules.time);
    assert.ok(gap < DELAY / 2, `the templates were listed ${gap} ms after the rules' listing was asked for`);
  });

  it('a repeated plan reads ahead what the last plan listed beyond its files (the templates its rules name, Fleet for their integrations), and lists each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-read-ahead-listed-'));
    const rule = (n: number) =>
      blockRuleYaml(`rule-${n}`, ['A rule.'], ['process.name: x']).replace('  severity:', '  enabled: true\n  related_integrations: [{package: endpoint, version: ^8.0.0}]\n  timeline_id: team-timeline\n  timeline_title: Team timeline\n  severity:');
    for (let n = 0; n < 5; n++) writeFileSync(join(dir, `r${n}.yaml`), rule(n));
    const env = { SVCFORM_CACHE_DIR: join(dir, '.cache') };
    const count = (path: string) => emu.log.all().filter((r) => r.method === 'GET' && r.path === path).length;
    const first = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(first.code, 0, first.out + first.err);
    emu.log.clear();
    // An invalid file stops the run before its plan begins: what was listed went out ahead, from what the last plan listed.
    writeFileSync(join(dir, 'r0.yaml'), rule(0).replace('risk_score: 21', 'risk_score: loud'));
    const invalid = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(invalid.code, 1, invalid.out + invalid.err);
    assert.equal(count('/api/timelines'), 1, 'the templates the last plan listed were read ahead');
    assert.equal(count('/api/fleet/epm/packages'), 1, "and Fleet's packages");
    assert.equal(count('/api/fleet/package_policies'), 1, "and Fleet's package policies");
    writeFileSync(join(dir, 'r0.yaml'), rule(0));
    emu.log.clear();
    const warm = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(warm.code, 0, warm.out + warm.err);
    assert.equal(warm.out, first.out, 'the same plan');
    for (const path of ['/api/timelines', '/api/fleet/epm/packages', '/api/fleet/package_policies', '/api/detection_engine/rules/_find']) {
      assert.equal(count(path), 1, `${path} listed once: what was read ahead is what the plan used`);
    }
    // A target that refuses Fleet's packages is asked once: the refusal read ahead is the answer.
    emu.log.clear();
    await fetch(`${emu.url}/__emulator/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ method: 'GET', path: '^/api/fleet/epm/packages$', status: 403, times: 5 }] }) });
    const refused = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(refused.code, 0, refused.out + refused.err);
    assert.equal(count('/api/fleet/epm/packages'), 1, 'the refused listing was not asked again');
  });

  it('a repeated plan reads at once what the last plan of the same paths declared; a kind no longer declared is listed and left unused, then forgotten', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-read-ahead-memory-'));
    for (let n = 0; n < 3; n++) writeFileSync(join(dir, `w${n}.yaml`), window(n));
    for (let n = 0; n < 3; n++) writeFileSync(join(dir, `r${n}.yaml`), blockRuleYaml(`rule-${n}`, ['A rule.'], ['process.name: x']));
    const env = { SVCFORM_CACHE_DIR: join(dir, '.cache') };
    const ruleListings = () => emu.log.all().filter((r) => r.method === 'GET' && r.route === '/api/detection_engine/rules/_find').length;
    const first = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(first.code, 0, first.out + first.err);
    for (let n = 0; n < 3; n++) rmSync(join(dir, `r${n}.yaml`));
    emu.log.clear();
    const remembered = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(remembered.code, 0, remembered.out + remembered.err);
    assert.equal(ruleListings(), 1, 'the rules the last plan declared were read at once, before the files were read');
    assert.equal(listings(), 1);
    emu.log.clear();
    const unremembered = await cli(['plan', dir, '--url', emu.url], { SVCFORM_CACHE_DIR: join(dir, '.other-cache') });
    assert.equal(unremembered.code, 0, unremembered.out + unremembered.err);
    assert.equal(ruleListings(), 0, 'without that memory, no rule is read');
    assert.equal(remembered.out, unremembered.out, 'the same plan either way');
    emu.log.clear();
    const next = await cli(['plan', dir, '--url', emu.url], env);
    assert.equal(next.code, 0, next.out + next.err);
    assert.equal(ruleListings(), 0, 'the plan before kept what its files declared: no rule any more');
    assert.equal(listings(), 1);
  });
});
