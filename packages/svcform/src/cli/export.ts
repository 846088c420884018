import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { makeDirectory } from '../common/make-directory.js';
import { compareText } from '../common/compare-text.js';
import {
  buildExport,
  MANAGE_HEADER,
  MARKER_FILE,
  READONLY_DIR,
  renderManageSection,
  renderVariablesFile,
  VARIABLES_FILE,
  type ExportLayout,
  type ExportResult,
  type LiveGroup,
} from '../engine/export.js';
import { completeLive, fetchLive, pairKey } from '../engine/live.js';
import { adapterFor, knownKinds } from '../kinds/registry.js';
import { redactor } from '../manifest/redact.js';
import { exportSchemaLocation } from './schemas.js';
import { liveReadProgress } from './progress.js';
import { connectionOptions, defaultSpace, openTarget, readConfig, selectionOf, UsageError, type CommonOptions, type Io } from './context.js';
import { Selection } from '../engine/selection.js';
import { VERSION } from '../common/version.js';

/** How export (and `init --from-server`, which exports) reaches the server and reports. */
export type ExportTargetOptions = Pick<CommonOptions, 'url' | 'concurrency' | 'timeout' | 'deadline' | 'caCert' | 'clientCert' | 'clientKey' | 'color' | 'quiet' | 'verbose'>;

/** The options program.ts declares for `svcform export`. */
export interface ExportCommandOptions extends ExportTargetOptions {
  out: string;
  config?: string;
  kind?: string[];
  space?: string[];
  select?: string[];
  layout?: string;
  includeBuiltin?: boolean;
  manageOut?: string;
  /** Directory holding the schemas (`svcform schemas --out`); modelines point there instead of the release URL. */
  schemas?: string;
}

interface Marker {
  exportedBy: 'svcform';
  version: string;
  /** Path relative to the output directory (`/`-separated) -> sha256 of the content written. */
  files: Record<string, string>;
}

const CONFIG_NAMES = new Set(['svcform.yaml', 'svcform.yml']);
const SPACE_ID = /^[a-z0-9_-]+$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `svcform export`: live objects of the chosen kinds and spaces written as manifests. */
export async function exportCommand(opts: ExportCommandOptions, io: Io): Promise<number> {
  return (await exportLive(opts, io)).code;
}

/** What an export wrote, for a command built on it (`init --from-server`). */
export interface ExportOutcome {
  /** 0, or 1 when some object could not be exported (the rest was written). */
  code: number;
  result: ExportResult;
  /** The spaces read, the first being the home space. */
  spaces: string[];
  /** The files written, relative to --out (`/`-separated; the marker file aside). */
  written: string[];
}

/**
 * The export itself, for `export` and `init --from-server` alike. `keep` names files (relative
 * to --out) a caller will write beside the export itself: they may be present in --out, and are
 * neither replaced nor removed here.
 */
export async function exportLive(opts: ExportCommandOptions, io: Io, keep: ReadonlySet<string> = new Set()): Promise<ExportOutcome> {
  const started = Date.now();
  const layout = (opts.layout ?? 'per-kind') as ExportLayout;
  if (layout !== 'per-kind' && layout !== 'per-object') throw new UsageError(`--layout must be per-kind or per-object, not ${opts.layout}`);
  const selection = selectionOf(opts.select);
  const kinds = chooseKinds(opts.kind, selection);
  const common: CommonOptions = { ...connectionOptions(opts), config: opts.config };
  const config = readConfig(common, []);
  const spaces = opts.space?.length ? [...new Set(opts.space.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))] : [defaultSpace(common, config)];
  for (const s of spaces) if (!SPACE_ID.test(s)) throw new UsageError(`--space ${JSON.stringify(s)} is not a space id (lowercase letters, digits, _ and -)`);

  const outDir = resolve(opts.out);
  const previous = inspectOutDir(outDir, keep);
  const manageFile = opts.manageOut && opts.manageOut !== '-' ? resolve(opts.manageOut) : undefined;
  if (manageFile) checkManageOut(manageFile, outDir);
  const schemaLocation = exportSchemaLocation(opts.schemas, VERSION);

  const target = await openTarget(common, config, io, spaces);
  const pairs = kinds.flatMap((kind) => spaces.map((space) => ({ kind, space })));
  let groups: LiveGroup[];
  try {
    const fetchStart = Date.now();
    const progress = liveReadProgress(io, { quiet: opts.quiet }, adapterFor);
    // Objects of no space (agnostic exception lists) are read once and exported with the first space.
    const live = await fetchLive(target.ctx, pairs, progress.adapterFor, () => false, undefined, undefined, spaces[0]).finally(() => progress.done());
    if (!live.failures.length) await completeLive(target.ctx, live, adapterFor);
    if (live.failures.length) {
      for (const f of live.failures) io.err(redactor.redact(`error: cannot list ${f.kind} in space ${f.space}: ${f.error.message}`));
      throw new UsageError(`could not read every kind and space; nothing was written to ${displayDir(outDir)}`);
    }
    groups = pairs.map(({ kind, space }) => ({ kind, space, objects: live.objects.get(pairKey(kind, space)) ?? [] }));
    if (opts.verbose) {
      for (const g of groups) io.err(`listed ${g.objects.length} ${g.kind} in space ${g.space}`);
      io.err(`read live state in ${Date.now() - fetchStart} ms`);
    }
  } finally {
    await target.close();
  }
  const unmatched = selection.unmatched(groups.flatMap((g) => g.objects));
  if (unmatched.length) {
    const which = unmatched.map((p) => `--select ${JSON.stringify(p)}`).join(', ');
    throw new UsageError(`${which} ${unmatched.length === 1 ? 'matches' : 'match'} no live object of the kinds and spaces read (${kinds.join(', ') || 'no kind'}; space ${spaces.join(', ')}); nothing was written to ${displayDir(outDir)}`);
  }

  const result = buildExport(groups, adapterFor, {
    run: target.ctx.run,
    layout,
    includeBuiltin: !!opts.includeBuiltin,
    select: selection,
    outDir,
    ...schemaLocation,
    version: VERSION,
    redact: (text) => redactor.redact(text),
  });

  const written: Record<string, string> = {};
  removePrevious(outDir, previous);
  makeDirectory(outDir);
  const write = (rel: string, content: string) => {
    const full = join(outDir, ...rel.split('/'));
    makeDirectory(dirname(full));
    writeFileSync(full, content);
    written[rel] = sha256(content);
  };
  for (const file of result.files) write(file.path, file.content);
  if (result.variables.length) write(VARIABLES_FILE, redactor.redact(renderVariablesFile(result.variables)));
  if (opts.manageOut) {
    const text = redactor.redact(renderManageSection(result.pairs, VERSION));
    if (!manageFile) io.out(text);
    else if (isInside(manageFile, outDir)) write(relative(outDir, manageFile).split(sep).join('/'), text);
    else {
      makeDirectory(dirname(manageFile));
      writeFileSync(manageFile, text);
    }
  }
  const marker: Marker = { exportedBy: 'svcform', version: VERSION, files: written };
  writeFileSync(join(outDir, MARKER_FILE), JSON.stringify(marker, null, 2) + '\n');

  for (const w of result.warnings) io.err(redactor.redact(`warning: ${w.subject}: ${w.message}`));
  for (const p of result.problems) io.err(redactor.redact(`error: ${p.subject}: ${p.message}`));
  if (!opts.quiet) printSummary(io, result, { outDir, manageFile, manageOut: opts.manageOut, files: Object.keys(written).length, ms: Date.now() - started });
  if (result.problems.length) {
    io.err(`${result.problems.length} object${result.problems.length === 1 ? ' was' : 's were'} not exported (see the errors above); the rest was written.`);
    return { code: 1, result, spaces, written: Object.keys(written) };
  }
  return { code: 0, result, spaces, written: Object.keys(written) };
}

/**
 * Kinds to read: --kind (any spelling: `Rule`, `rule`, `value-list`, comma-separated too), else
 * every kind; narrowed further to the kinds --select patterns can match, so `--select Rule/x`
 * does not list connectors.
 */
export function chooseKinds(requested: string[] | undefined, selection: Selection = new Selection()): string[] {
  const known = knownKinds();
  const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  let kinds = known;
  const asked = (requested ?? []).flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean);
  if (asked.length) {
    const chosen = new Set<string>();
    for (const r of asked) {
      const match = known.find((k) => norm(k) === norm(r));
      if (!match) throw new UsageError(`unknown kind ${JSON.stringify(r)} for --kind; known kinds: ${known.join(', ')}`);
      chosen.add(match);
    }
    kinds = known.filter((k) => chosen.has(k));
  }
  return kinds.filter((k) => selection.mayMatchKind(k));
}

function walkFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) out.push(...walkFiles(full, base));
    else out.push(relative(base, full).split(sep).join('/'));
  }
  return out;
}

/**
 * The output directory must be empty, or hold only what an earlier export wrote there, unchanged
 * (its marker file records each file's hash). Those files are replaced; anything else there (a
 * file added or edited since) stops the run, so an export never overwrites a person's work.
 * Returns the files to remove before writing.
 */
export function inspectOutDir(outDir: string, keep: ReadonlySet<string> = new Set()): string[] {
  if (!existsSync(outDir)) return [];
  if (!statSync(outDir).isDirectory()) throw new UsageError(`--out ${displayDir(outDir)} exists and is not a directory`);
  const present = walkFiles(outDir).filter((rel) => !keep.has(rel));
  if (present.length === 0) return [];
  const markerPath = join(outDir, MARKER_FILE);
  if (!existsSync(markerPath)) {
    throw new UsageError(
      `--out ${displayDir(outDir)} is not empty and was not written by svcform export (no ${MARKER_FILE}); export writes only into an empty directory or over its own earlier export: choose a new directory`,
    );
  }
  let marker: Marker;
  try {
    marker = JSON.parse(readFileSync(markerPath, 'utf8')) as Marker;
    if (marker?.exportedBy !== 'svcform' || typeof marker.files !== 'object' || marker.files === null) throw new Error('not an export marker');
  } catch (err) {
    throw new UsageError(`--out ${displayDir(outDir)}: ${MARKER_FILE} is unreadable (${(err as Error).message}); choose a new directory`);
  }
  const foreign: string[] = [];
  for (const rel of present) {
    if (rel === MARKER_FILE) continue;
    const hash = marker.files[rel];
    if (hash === undefined) foreign.push(`${rel} (not written by the earlier export)`);
    else if (sha256(readFileSync(join(outDir, ...rel.split('/')), 'utf8')) !== hash) foreign.push(`${rel} (changed since the earlier export)`);
  }
  if (foreign.length) {
    const shown = foreign.slice(0, 10).map((f) => `  ${f}`).join('\n');
    const more = foreign.length > 10 ? `\n  ... and ${foreign.length - 10} more` : '';
    throw new UsageError(`--out ${displayDir(outDir)} holds files an export would overwrite or leave stale:\n${shown}${more}\nMove them away or choose a new directory; nothing was written.`);
  }
  return present;
}

function removePrevious(outDir: string, files: string[]): void {
  if (files.length === 0) return;
  const dirs = new Set<string>();
  for (const rel of files) {
    const full = join(outDir, ...rel.split('/'));
    unlinkSync(full);
    for (let d = dirname(full); isInside(d, outDir) && d !== outDir; d = dirname(d)) dirs.add(d);
  }
  // Deepest first, so a parent is empty by the time it is tried.
  for (const d of [...dirs].sort((a, b) => b.length - a.length || compareText(a, b))) {
    if (existsSync(d) && readdirSync(d).length === 0) rmdirSync(d);
  }
}

function checkManageOut(file: string, outDir: string): void {
  if (isInside(file, outDir)) {
    // Inside the output directory the out-dir rules apply; but a .yaml there other than
    // svcform.yaml would be read as a manifest by `plan <DIR>`.
    if (/\.ya?ml$/i.test(file) && !CONFIG_NAMES.has(basename(file))) {
      throw new UsageError(`--manage-out ${file}: inside --out, name it svcform.yaml (plan reads any other .yaml there as a manifest)`);
    }
    return;
  }
  // A file an earlier export wrote may be replaced; anything else (a real svcform.yaml) may not.
  if (existsSync(file) && !readFileSync(file, 'utf8').startsWith(MANAGE_HEADER)) {
    throw new UsageError(`--manage-out ${file} already exists and was not written by svcform export; svcform does not overwrite it (print the section with --manage-out - and merge it by hand)`);
  }
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

function displayDir(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') ? rel : dir;
}

function printSummary(io: Io, result: ExportResult, info: { outDir: string; manageFile?: string; manageOut?: string; files: number; ms: number }): void {
  const lines: string[] = [];
  const exported = result.pairs.reduce((n, p) => n + p.exported, 0);
  const skipped = result.pairs.reduce((n, p) => n + p.readOnlySkipped, 0);
  const readOnly = result.pairs.reduce((n, p) => n + p.readOnlyExported, 0);
  const kindWidth = Math.max(4, ...result.pairs.map((p) => p.kind.length));
  const spaceWidth = Math.max(5, ...result.pairs.map((p) => p.space.length));
  lines.push(`${'kind'.padEnd(kindWidth)}  ${'space'.padEnd(spaceWidth)}  exported  read-only`);
  for (const p of result.pairs) {
    const ro = p.readOnlyExported ? `${p.readOnlyExported} written` : p.readOnlySkipped ? `${p.readOnlySkipped} skipped` : '-';
    lines.push(`${p.kind.padEnd(kindWidth)}  ${p.space.padEnd(spaceWidth)}  ${String(p.exported).padStart(8)}  ${ro}`);
  }
  lines.push('');
  lines.push(`Exported ${exported} object${exported === 1 ? '' : 's'} to ${displayDir(info.outDir)} in ${info.files} file${info.files === 1 ? '' : 's'} (${(info.ms / 1000).toFixed(1)} s).`);
  if (skipped) lines.push(`Skipped ${skipped} read-only object${skipped === 1 ? '' : 's'} (built-in, prebuilt, preconfigured or managed); --include-builtin writes them under ${READONLY_DIR}/.`);
  if (readOnly) lines.push(`Wrote ${readOnly} read-only object${readOnly === 1 ? '' : 's'} under ${READONLY_DIR}/ for reference; svcform never writes them and plan skips that folder.`);
  if (info.manageFile) lines.push(`Wrote the manage section to ${displayDir(info.manageFile)}.`);
  const needed = result.variables;
  if (needed.length) {
    lines.push('');
    lines.push('Set these environment variables before plan/apply:');
    const width = Math.max(...needed.map((v) => v.name.length));
    for (const v of needed) lines.push(`  ${v.name.padEnd(width)}  ${v.subject}${v.readOnly ? ' (read-only)' : ''}: ${v.description}`);
    lines.push(`(listed in ${displayDir(join(info.outDir, VARIABLES_FILE))})`);
  }
  io.err(redactor.redact(lines.join('\n')));
}
