/**
 * One conformance suite run over every registered adapter (src/kinds/registry.ts). Each kind's
 * sample data lives in cases.ts; a registered kind without a case fails here, so a new kind gets
 * these checks by adding its adapter and its case, and nothing else.
 *
 * Every kind gets its own emulator (in-process, port 0); every check starts from an empty server
 * (POST /__emulator/reset) and runs the real CLI in-process against it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { knownKinds } from '../../src/kinds/registry.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, type CliRun } from '../helpers/cli.js';
import { CASES, ok, type ConformanceCase } from './cases/index.js';
import { readTree, variablesEnv } from '../helpers/export-files.js';

/** The space check every server-facing command makes once per space; not a read of any kind. */
const SPACE_ROUTE = '/api/spaces/space/:id';

// ---- files ----

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/**
 * Every directory of the suite, inside one: the repository root (--root) of the runs of a case
 * whose manifests name files.
 */
const suiteRoot = mkdtempSync(join(tmpdir(), 'svcform-conformance-'));
roots.push(suiteRoot);

function tempDir(tag: string): string {
  return mkdtempSync(join(suiteRoot, `${tag}-`));
}

/** A fresh directory holding the documents in one manifest file, and the files they name. */
function writeManifests(tag: string, docs: string[], files: Record<string, string> = {}): string {
  const dir = tempDir(tag);
  const text = docs
    .filter((d) => d.trim() !== '')
    .map((d) => d.replace(/\n*$/, '\n'))
    .join('---\n');
  writeFileSync(join(dir, 'manifests.yaml'), text);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}


// ---- manifests and pointers ----

function pointerPath(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `/spec/a/b` -> `/a/b`: plan fields are pointers into the spec. */
function specPointer(pointer: string): string {
  assert.ok(pointer.startsWith('/spec/'), `${pointer} must point into the spec`);
  return pointer.slice('/spec'.length);
}

/** How the text plan labels a spec field (`/schedule/custom/duration` -> `spec.schedule.custom.duration`). */
function fieldLabel(pointer: string): string {
  // Array indices show as [0], other keys that are not identifiers as ["key"] (as displayField writes them).
  return 'spec' + pointerPath(specPointer(pointer)).map((s) => (/^[A-Za-z_][\w-]*$/.test(s) ? `.${s}` : /^\d+$/.test(s) ? `[${s}]` : `[${JSON.stringify(s)}]`)).join('');
}

/** A manifest document with fields set (paths from the document root). */
function withFields(doc: string, fields: Array<[string[], unknown]>): string {
  const parsed = parseDocument(doc);
  for (const [path, value] of fields) parsed.setIn(path, value);
  return String(parsed);
}

function valueAt(doc: string, pointer: string): unknown {
  let cur: any = parseDocument(doc).toJS();
  for (const seg of pointerPath(pointer)) cur = cur?.[seg];
  return cur;
}

function kindCounts(docs: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of docs) {
    for (const parsed of parseAllDocuments(d)) {
      const kind = parsed.toJS()?.kind;
      if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
  }
  return counts;
}

const changeList = (plan: any): string[] => plan.changes.map((c: any) => `${c.action} ${c.kind}/${c.name}`);
const shown = (run: CliRun) => `exit ${run.code}\n--- stdout\n${run.out}\n--- stderr\n${run.err}`;

// ---- the suite ----

describe('conformance cases', () => {
  it('every case names a registered kind', () => {
    const known = new Set(knownKinds());
    assert.deepEqual(Object.keys(CASES).filter((k) => !known.has(k)), [], 'cases for kinds the registry does not have');
  });
});

/** Route pattern -> the kind whose case declares it and the bound it gives. */
const READS = new Map<string, { kind: string; bound: (n: number) => number }>();
/** Routes that read over POST (declared as `POST /path`). */
const POST_READS = new Set<string>();
const readRoute = (key: string) => (key.startsWith('POST ') ? key.slice('POST '.length) : key);
for (const c of Object.values(CASES)) {
  for (const [key, bound] of Object.entries(c.reads)) {
    if (key.startsWith('POST ')) POST_READS.add(readRoute(key));
    // A route two kinds read (rules _find) keeps the first bound: cases declare one page for it.
    if (!READS.has(readRoute(key))) READS.set(readRoute(key), { kind: c.kind, bound });
  }
}

for (const kind of knownKinds()) {
  const c: ConformanceCase | undefined = CASES[kind];
  describe(`${kind} conformance`, () => {
    if (!c) {
      it('has a conformance case', () => {
        assert.fail(`kind ${kind} is registered in src/kinds/registry.ts but has no case in test/conformance/cases.ts: add sample manifests and an out-of-band edit for it`);
      });
      return;
    }

    const tag = kind.toLowerCase();
    const secret = `cf-secret-${tag}-first-3b9d7e`;
    const rotated = `cf-secret-${tag}-rotated-a04c61`;
    const secretEnv = (c.secret ?? c.noSecret)!.env;
    const env: Record<string, string> = { ...(c.env ?? {}), [secretEnv]: secret };
    const names = c.names ?? { a: 'conf-a', b: 'conf-b', s: 'keep-secret' };
    const spaces = c.spaces ?? { a: 'default', b: 'default', s: 'default' };
    const runSpaces = [...new Set([spaces.a, spaces.b, spaces.s])];
    const otherSpaces = runSpaces.filter((sp) => sp !== 'default');
    const spaceArgs = (list: string[]) => (list.length === 1 && list[0] === 'default' ? [] : ['--space', list.join(',')]);
    const all = [c.deps, c.a, c.b, c.s];
    let emu: RunningEmulator;

    before(async () => {
      emu = await emulator({ ...(otherSpaces.length ? { spaces: otherSpaces } : {}), ...(c.deployment ? { deployment: c.deployment } : {}) });
    });
    after(() => emu.stop());

    const reset = () => ok(call(emu, 'POST', '/__emulator/reset'), 'reset the emulator');
    const manifests = (t: string, docs: string[]) => writeManifests(t, docs, c.files);
    const rootArgs = c.files ? ['--root', suiteRoot] : [];
    // export reads no manifest, and takes no --root.
    const run = (args: string[], e: Record<string, string> = env) => cli([...args, '--url', emu.url, ...(args[0] === 'export' ? [] : rootArgs)], e);
    const applyOk = async (dirs: string[], extra: string[] = [], e = env) => {
      const applied = await run(['apply', ...dirs, ...extra], e);
      assert.equal(applied.code, 0, `apply failed:\n${shown(applied)}`);
      return applied;
    };
    const planJson = async (dirs: string[], extra: string[] = [], e = env) => {
      const planned = await run(['plan', ...dirs, '--json', ...extra], e);
      assert.notEqual(planned.code, 1, `plan failed:\n${shown(planned)}`);
      return { run: planned, plan: JSON.parse(planned.out) };
    };

    it('1. apply, then plan --detailed-exitcode is empty', async () => {
      await reset();
      const dir = manifests(`${tag}-converge`, all);
      const applied = await applyOk([dir]);
      assert.match(applied.out, /Apply: \d+ done, 0 failed, 0 skipped\./);
      const planned = await run(['plan', dir, '--detailed-exitcode']);
      assert.equal(planned.code, 0, shown(planned));
      assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete/);
    });

    it(`2. an out-of-band edit of ${c.edit.pointer} shows in plan and drift; apply repairs it`, async () => {
      await reset();
      const dir = manifests(`${tag}-drift`, all);
      await applyOk([dir]);
      await c.edit.apply(emu);
      const wanted = valueAt(c.a, c.edit.pointer);

      const { run: planned, plan } = await planJson([dir], ['--detailed-exitcode']);
      assert.equal(planned.code, 2, shown(planned));
      assert.deepEqual(changeList(plan), [`update ${kind}/${names.a}`]);
      const fields = plan.changes[0].fields;
      assert.deepEqual(fields.map((f: any) => f.pointer), [specPointer(c.edit.pointer)], JSON.stringify(fields));
      assert.deepEqual(fields[0].before, c.edit.value);
      assert.deepEqual(fields[0].after, wanted);

      const text = await run(['plan', dir]);
      assert.equal(text.code, 0, shown(text));
      assert.ok(text.out.includes(`~ update ${kind}/${names.a} (space ${spaces.a})`), shown(text));
      assert.ok(text.out.includes(`${fieldLabel(c.edit.pointer)}`), shown(text));

      const drift = await run(['drift', dir]);
      assert.equal(drift.code, 2, shown(drift));
      assert.match(drift.out, /^Drift: 1 change/);

      const repaired = await applyOk([dir]);
      assert.ok(repaired.out.includes(`update ${kind}/${names.a}`), shown(repaired));
      const clean = await run(['drift', dir]);
      assert.equal(clean.code, 0, shown(clean));
      assert.match(clean.out, /No drift/);
      assert.deepEqual(await c.edit.read(emu), wanted, 'the server holds the manifest value again');
    });

    it('3. deleting conf-a on the server shows as a create of conf-a; apply recreates it', async () => {
      await reset();
      const dir = manifests(`${tag}-deleted`, all);
      await applyOk([dir]);
      await c.remove(emu, names.a, spaces.a);
      const { run: planned, plan } = await planJson([dir], ['--detailed-exitcode']);
      assert.equal(planned.code, 2, shown(planned));
      assert.deepEqual(changeList(plan), [`create ${kind}/${names.a}`]);
      await applyOk([dir]);
      const again = await run(['plan', dir, '--detailed-exitcode']);
      assert.equal(again.code, 0, shown(again));
    });

    it('4. inside a manage scope, conf-b removed from the manifests is deleted; objects outside the scope are not', async () => {
      await reset();
      const config = join(tempDir(`${tag}-config`), 'svcform.yaml');
      const selector = c.names ? `{names: [${names.a}, ${names.b}]}` : '{namePrefix: conf-}';
      writeFileSync(config, `manage:\n  - kind: ${kind}\n    spaces: [${[...new Set([spaces.a, spaces.b])].join(', ')}]\n    selector: ${selector}\n`);
      const full = manifests(`${tag}-scope-all`, all);
      const first = await applyOk([full], ['--config', config]);
      assert.match(first.out, /, 0 to delete/);

      // conf-b (in the scope) and keep-secret (outside it) both lose their manifests.
      const fewer = manifests(`${tag}-scope-fewer`, [c.deps, c.a]);
      const approve = c.deleteArgs ?? [];
      const { run: planned, plan } = await planJson([fewer], ['--config', config, ...approve]);
      assert.equal(planned.code, 0, shown(planned));
      assert.deepEqual(changeList(plan), [`delete ${kind}/${names.b}`]);
      // keep-secret is read (and counted as unmanaged) when it shares a space with the scope.
      if ([spaces.a, spaces.b].includes(spaces.s)) assert.ok(plan.summary.unmanaged >= 1, 'keep-secret is counted as unmanaged');
      const text = await run(['plan', fewer, '--config', config, ...approve]);
      assert.ok(text.out.includes(`- delete ${kind}/${names.b} (space ${spaces.b})`), shown(text));
      assert.ok(!text.out.includes(`${kind}/${names.s} (space ${spaces.s})`), shown(text));

      // A delete needs approval; without a terminal that is --auto-approve.
      await applyOk([fewer], ['--config', config, '--auto-approve', ...approve]);
      // Back with every manifest and no scope: only conf-b is missing, keep-secret survived.
      const { plan: restored } = await planJson([full]);
      assert.deepEqual(changeList(restored), [`create ${kind}/${names.b}`]);
    });

    it(`5. export --kind ${kind}, then plan on the exported directory is empty`, async () => {
      await reset();
      await applyOk([manifests(`${tag}-export-src`, [c.deps, c.a, c.b])]);
      const out = join(tempDir(`${tag}-export`), 'out');
      const exported = await run(['export', '--out', out, '--kind', kind, ...spaceArgs([...new Set([spaces.a, spaces.b])])]);
      assert.equal(exported.code, 0, shown(exported));
      const docs = [...readTree(out).entries()]
        .filter(([f]) => f.endsWith('.yaml'))
        .flatMap(([, text]) => parseAllDocuments(text).map((d) => d.toJS()));
      assert.deepEqual(docs.map((d) => `${d.kind}/${d.metadata.name}`).sort(), [`${kind}/${names.a}`, `${kind}/${names.b}`, ...(c.preexisting ?? []).map((n) => `${kind}/${n}`)].sort());

      const dirs = [out, ...(c.deps.trim() ? [manifests(`${tag}-export-deps`, [c.deps])] : [])];
      const vars = variablesEnv(out);
      const validated = await cli(['validate', ...dirs, ...rootArgs], vars);
      assert.equal(validated.code, 0, shown(validated));
      const planned = await run(['plan', ...dirs, '--detailed-exitcode'], vars);
      assert.equal(planned.code, 0, shown(planned));
      assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete/);
    });

    it('6. plan reads with list endpoints only: no write, no GET of one object, requests bounded by pages', async () => {
      await reset();
      const dir = manifests(`${tag}-reads`, all);
      await applyOk([dir]);
      emu.log.clear();
      const planned = await run(['plan', dir]);
      assert.equal(planned.code, 0, shown(planned));
      const log = emu.log.all();
      const writes = log.filter((r) => r.method !== 'GET' && !(r.method === 'POST' && POST_READS.has(r.route)));
      assert.deepEqual(writes.map((r) => `${r.method} ${r.path}${r.query}`), [], 'planning writes nothing');

      const objects = kindCounts(all);
      assert.ok((objects.get(kind) ?? 0) >= 3, 'the samples hold at least three objects of the kind');
      const counts = new Map<string, number>();
      for (const r of log) counts.set(r.route, (counts.get(r.route) ?? 0) + 1);
      const listRoute = readRoute(Object.keys(c.reads)[0]);
      assert.ok(counts.has(listRoute), `the plan read ${listRoute}`);
      for (const [route, count] of counts) {
        if (route === SPACE_ROUTE) {
          assert.equal(count, runSpaces.length, 'one space check per space');
          continue;
        }
        const read = READS.get(route);
        const paths = log.filter((r) => r.route === route).map((r) => `GET ${r.path}${r.query}`);
        assert.ok(read, `GET ${route || '(no route)'} is not a list route any case declares (a GET of a single object?): ${paths.join(', ')}`);
        const max = read.bound(objects.get(read.kind) ?? 0);
        assert.ok(count <= max, `${count} requests to ${route} for ${objects.get(read.kind) ?? 0} ${read.kind} objects (at most ${max}): ${paths.join(', ')}`);
      }
    });

    const check7 = c.change ? `7. a field in metadata.ignore (${c.edit.pointer}) keeps its out-of-band value through an update of another field` : `7. a field in metadata.ignore (${c.edit.pointer}) keeps its out-of-band value: a plan shows no change (the kind has one field: ${c.oneField})`;
    it(check7, async () => {
      await reset();
      const ignored = withFields(c.a, [[['metadata', 'ignore'], [c.edit.pointer]]]);
      await applyOk([manifests(`${tag}-ignore`, [c.deps, ignored, c.b])]);
      await c.edit.apply(emu);
      const quiet = await run(['plan', manifests(`${tag}-ignore-same`, [c.deps, ignored, c.b]), '--detailed-exitcode']);
      assert.equal(quiet.code, 0, `an ignored field's drift is not a change:\n${shown(quiet)}`);
      if (!c.change) {
        assert.ok(c.oneField, 'a case without `change` says why its kind has one field');
        assert.deepEqual(await c.edit.read(emu), c.edit.value);
        return;
      }

      const changed = withFields(ignored, [[pointerPath(c.change.pointer), c.change.value]]);
      const dir = manifests(`${tag}-ignore-changed`, [c.deps, changed, c.b]);
      const { plan } = await planJson([dir]);
      assert.deepEqual(changeList(plan), [`update ${kind}/${names.a}`]);
      assert.deepEqual(plan.changes[0].fields.map((f: any) => f.pointer), [specPointer(c.change.pointer)], 'only the changed field shows');
      await applyOk([dir]);
      const converged = await run(['plan', dir, '--detailed-exitcode']);
      assert.equal(converged.code, 0, shown(converged));
      assert.deepEqual(await c.edit.read(emu), c.edit.value, `the update lost the out-of-band value of the ignored field ${c.edit.pointer}`);
    });

    const check8 = c.secret ? '8. a secret never appears in any output or exported file; the planned value shows as (sensitive)' : `8. no field can hold a secret (${c.noSecret!.reason}): one placed in ${c.noSecret!.pointer} is refused by validate and never printed`;
    it(check8, async () => {
      await reset();
      if (!c.secret) {
        const withSecret = withFields(c.s, [[pointerPath(c.noSecret!.pointer), `\${env:${c.noSecret!.env}}`]]);
        const refused = await cli(['validate', manifests(`${tag}-nosecret`, [c.deps, c.a, c.b, withSecret]), ...rootArgs], env);
        assert.equal(refused.code, 1, `validate refuses a secret in ${c.noSecret!.pointer}:\n${shown(refused)}`);
        assert.ok(refused.out.includes(fieldLabel(c.noSecret!.pointer)) || refused.err.includes(fieldLabel(c.noSecret!.pointer)), shown(refused));
        assert.ok(!`${refused.out}${refused.err}`.includes(secret), `validate shows the secret value:\n${shown(refused)}`);
        return;
      }
      const secretField = c.secret;
      const dir = manifests(`${tag}-secret`, all);
      const outputs: Array<[string, string]> = [];
      const record = (what: string, r: CliRun, code: number) => {
        assert.equal(r.code, code, `${what}:\n${shown(r)}`);
        outputs.push([what, `${r.out}\n${r.err}`]);
        return r;
      };
      const rotatedEnv = { ...env, [secretField.env]: rotated };

      record('validate', await cli(['validate', dir, ...rootArgs], env), 0);
      record('plan', await run(['plan', dir]), 0);
      record('plan --json', await run(['plan', dir, '--json']), 0);
      record('apply', await run(['apply', dir]), 0);
      record('drift', await run(['drift', dir]), 0);

      // The secret changes (rotation): the update shows the field, with both values hidden.
      const text = record('plan (rotated)', await run(['plan', dir, '--detailed-exitcode'], rotatedEnv), 2);
      assert.ok(text.out.includes(`~ update ${kind}/${names.s} (space ${spaces.s})`), shown(text));
      assert.ok(text.out.includes(`${fieldLabel(secretField.pointer)}: "(sensitive)" -> "(sensitive)"`), shown(text));
      const json = record('plan --json (rotated)', await run(['plan', dir, '--json'], rotatedEnv), 0);
      const plan = JSON.parse(json.out);
      assert.deepEqual(changeList(plan), [`update ${kind}/${names.s}`]);
      const field = plan.changes[0].fields.find((f: any) => f.pointer === specPointer(secretField.pointer));
      assert.ok(field, `the plan shows ${secretField.pointer}: ${JSON.stringify(plan.changes[0].fields)}`);
      assert.equal(field.sensitive, true);
      assert.equal(field.after, '(sensitive)');
      record('plan --format markdown (rotated)', await run(['plan', dir, '--format', 'markdown'], rotatedEnv), 0);
      record('plan --format html (rotated)', await run(['plan', dir, '--format', 'html'], rotatedEnv), 0);
      record('apply (rotated)', await run(['apply', dir], rotatedEnv), 0);
      record('drift (rotated)', await run(['drift', dir], rotatedEnv), 0);

      // Not vacuous: the server does hold the secret now.
      const state = (await ok(call(emu, 'GET', '/__emulator/state'), 'emulator state')).text;
      assert.ok(state.includes(rotated), 'the rotated secret reached the server');

      const out = join(tempDir(`${tag}-secret-export`), 'out');
      record('export', await run(['export', '--out', out, '--kind', kind, ...spaceArgs(runSpaces)], rotatedEnv), 0);
      for (const [file, content] of readTree(out)) outputs.push([`exported ${file}`, content]);
      assert.ok(outputs.some(([what, content]) => what.startsWith('exported') && content.includes(names.s)), `${names.s} was exported`);

      for (const [what, content] of outputs) {
        assert.ok(!content.includes(secret), `${what} shows the secret value`);
        assert.ok(!content.includes(rotated), `${what} shows the rotated secret value`);
      }
    });
  });
}
