#!/usr/bin/env node
// The differential check on real content: converts the production rules of a checkout of the
// public detection-rules repository (rules/ and rules_building_block/, deprecated rules left out)
// into Rule manifests under an ignored folder, validates them with the built CLI, and prints the
// errors and warnings by class. Nothing of that corpus is committed: the folder is in .gitignore.
//
//   node scripts/corpus-check.mjs DIR [--out .corpus/detection-rules] [--convert-only] [--show N]
//
// The conversion does what the vendor's own release build does to a rule file, and no more:
// `metadata.integration` becomes `related_integrations`, ES|QL is written with the API's neutral
// name (`type`/`language` `esql` become `qlang`, wire-facts glossary), and the rule_id becomes
// metadata.name. Exit code: 0 when the corpus validates with no error, 1 otherwise.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { stringify } from 'yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const flag = (name) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const out = resolve(option('--out', join(repoRoot, '.corpus', 'detection-rules')));
const show = Number(option('--show', '5'));
const convertOnly = flag('--convert-only');
const source = args[0];
if (!source) {
  console.error('usage: node scripts/corpus-check.mjs DETECTION_RULES_CHECKOUT [--out DIR] [--convert-only] [--show N]');
  process.exit(2);
}

function tomlFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('_deprecated')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...tomlFiles(path));
    else if (entry.name.endsWith('.toml')) found.push(path);
  }
  return found;
}

// Fields of a rule file that are the build's or the repository's, not the API's.
const NOT_API = new Set(['rule_id']);

function toManifest(toml) {
  const rule = toml.rule;
  if (!rule?.rule_id) return undefined;
  const spec = {};
  for (const [key, value] of Object.entries(rule)) if (!NOT_API.has(key)) spec[key] = value;
  // The rule file keeps new_terms as {field, value, history_window_start: [{field, value}]}; the
  // release build writes it as the API's two fields.
  if (spec.new_terms) {
    const { value, history_window_start: history } = spec.new_terms;
    delete spec.new_terms;
    spec.new_terms_fields = value;
    if (history?.[0]?.value !== undefined) spec.history_window_start = history[0].value;
  }
  if (spec.type === 'esql') spec.type = 'qlang';
  if (spec.language === 'esql') spec.language = 'qlang';
  const integrations = toml.metadata?.integration;
  if (spec.related_integrations === undefined && Array.isArray(integrations) && integrations.length > 0) {
    spec.related_integrations = integrations.map((name) => ({ package: name, version: '^1.0.0' }));
  }
  return { apiVersion: 'svcform/v1', kind: 'Rule', metadata: { name: rule.rule_id }, spec };
}

function convert() {
  rmSync(out, { recursive: true, force: true });
  let rules = 0;
  let skipped = 0;
  for (const top of ['rules', 'rules_building_block']) {
    const dir = join(source, top);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const file of tomlFiles(dir)) {
      const manifest = toManifest(parseToml(readFileSync(file, 'utf8')));
      if (!manifest) {
        skipped += 1;
        continue;
      }
      const target = join(out, relative(source, file)).replace(/\.toml$/, '.yaml');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, stringify(manifest, { lineWidth: 0 }));
      rules += 1;
    }
  }
  return { rules, skipped };
}

// A diagnostic's class: its message with quoted names, numbers and positions taken out.
function classOf(message) {
  return message
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, 'X')
    .replace(/\b\d+\b/g, 'N')
    .replace(/did you mean [^?;)]*/g, 'did you mean X')
    .slice(0, 160);
}

const started = Date.now();
const { rules, skipped } = convert();
console.log(`converted ${rules} rules from ${source} into ${relative(process.cwd(), out) || out}` +
  (skipped ? ` (${skipped} files without a rule_id left out)` : '') + ` in ${Date.now() - started} ms`);
if (convertOnly) process.exit(0);

const cli = join(repoRoot, 'dist', 'src', 'cli', 'main.js');
const run = spawnSync(process.execPath, [cli, 'validate', out, '--json', '--no-cache'], {
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`validate did not print JSON (exit ${run.status}):\n${run.stderr.slice(0, 4000)}`);
  process.exit(2);
}
const bySeverity = { error: new Map(), warning: new Map() };
for (const d of report.diagnostics) {
  const classes = bySeverity[d.severity] ?? (bySeverity[d.severity] = new Map());
  const key = classOf(d.message);
  const entry = classes.get(key) ?? { count: 0, examples: [] };
  entry.count += 1;
  if (entry.examples.length < show) entry.examples.push(`${relative(out, d.file ?? '')}:${d.line ?? ''} ${d.message}`);
  classes.set(key, entry);
}
const total = (severity) => [...(bySeverity[severity]?.values() ?? [])].reduce((n, e) => n + e.count, 0);
console.log(`validate: ${report.resources} resources in ${report.files} files; ${total('error')} errors, ${total('warning')} warnings`);
for (const severity of Object.keys(bySeverity)) {
  const classes = [...bySeverity[severity].entries()].sort((a, b) => b[1].count - a[1].count);
  if (classes.length === 0) continue;
  console.log(`\n${severity}s by class:`);
  for (const [key, entry] of classes) {
    console.log(`  ${String(entry.count).padStart(5)}  ${key}`);
    for (const example of entry.examples) console.log(`           ${example}`);
  }
}
process.exit(total('error') === 0 ? 0 : 1);
