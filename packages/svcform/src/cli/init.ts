import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { makeDirectory } from '../common/make-directory.js';
import { exportedScopes, schemaModeline } from '../engine/export.js';
import { packageRoot } from '../manifest/schema.js';
import { redactor } from '../manifest/redact.js';
import { VERSION } from '../common/version.js';
import { exportLive, inspectOutDir, type ExportTargetOptions } from './export.js';
import { releaseSchemaUrl } from './schemas.js';
import { connectionOptions, safeUrl, UsageError, type Io } from './context.js';
import { adoptedConfig, EXAMPLE_FILE, exampleRule, IGNORED, manifestsReadme, MANIFESTS_DIR, starterConfig } from './init-templates.js';

/** The options program.ts declares for `svcform init`. */
export interface InitCommandOptions extends ExportTargetOptions {
  force?: boolean;
  fromServer?: boolean;
  space?: string[];
}

/** The GitHub Actions kit inside the package; copied file by file at run time, so its changes flow through. */
const KIT = ['examples', 'ci', 'github-actions'];
const CONFIG_FILE = `${MANIFESTS_DIR}/svcform.yaml`;
const README_FILE = `${MANIFESTS_DIR}/README.md`;
const SPACE_ID = /^[a-z0-9_-]+$/;
/** Options that only make sense when a server is read. */
const SERVER_OPTIONS: Array<[keyof InitCommandOptions, string]> = [
  ['url', '--url'],
  ['concurrency', '--concurrency'],
  ['timeout', '--timeout'],
  ['deadline', '--deadline'],
  ['caCert', '--ca-cert'],
  ['clientCert', '--client-cert'],
  ['clientKey', '--client-key'],
];

/**
 * `svcform init [DIR]`: the starting point of a repository: `manifests/svcform.yaml` (where the
 * CI kit's MANIFESTS expects it) with a `manage` scope, `manifests/README.md`, an example manifest
 * or, with --from-server, the live objects exported (the export command's own machinery) and owned
 * by name, the GitHub Actions kit, and `.svcform/` in .gitignore. Existing files are never
 * overwritten without --force; everything is checked before the server is read or a file written.
 */
export async function initCommand(dir: string, opts: InitCommandOptions, io: Io): Promise<number> {
  const root = resolve(dir);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new UsageError(`${dir} exists and is not a directory`);
  if (!opts.fromServer) {
    const given = SERVER_OPTIONS.filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
    if (given.length) throw new UsageError(`${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} used only with --from-server (init reads no server without it)`);
  }
  const spaces = [...new Set((opts.space ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))];
  if (!spaces.length) spaces.push('default');
  for (const s of spaces) if (!SPACE_ID.test(s)) throw new UsageError(`--space ${JSON.stringify(s)} is not a space id (lowercase letters, digits, _ and -)`);

  const kit = kitFiles();
  const own = [CONFIG_FILE, README_FILE, ...(opts.fromServer ? [] : [EXAMPLE_FILE]), ...kit.map((k) => k.path)];
  const present = own.filter((rel) => existsSync(join(root, ...rel.split('/'))));
  if (present.length && !opts.force) {
    const listed = present.map((p) => `  ${p}`).join('\n');
    throw new UsageError(`${display(root)} already holds files init would write:\n${listed}\nNothing was written. Pass --force to overwrite them.`);
  }
  const manifests = join(root, MANIFESTS_DIR);
  // init's own files may sit in manifests/ (under --force); anything else there is the export's rule:
  // an empty folder, or one holding only an earlier export, never a person's manifests.
  const keep = new Set([CONFIG_FILE, README_FILE].map((rel) => rel.slice(MANIFESTS_DIR.length + 1)));
  if (opts.fromServer) {
    try {
      inspectOutDir(manifests, keep);
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`init --from-server exports into ${display(manifests)}, which must be empty or hold only an earlier export (--force overwrites only the files init itself writes): ${err.message.replace(/^--out \S+ /, '')}`);
      throw err;
    }
  }

  const written: string[] = [];
  let code = 0;
  let config: string;
  let exported: { objects: number; files: number; variables: number } | undefined;
  if (opts.fromServer) {
    const outcome = await exportLive(
      { out: manifests, space: spaces, ...connectionOptions(opts) },
      io,
      keep,
    );
    code = outcome.code;
    const url = opts.url ?? io.env.SVC_URL;
    config = adoptedConfig(outcome.spaces, exportedScopes(outcome.result.pairs), VERSION, url && url !== 'embedded' ? safeUrl(url) : 'the embedded emulator');
    exported = {
      objects: outcome.result.pairs.reduce((n, p) => n + p.exported, 0),
      files: outcome.written.length,
      variables: outcome.result.variables.length,
    };
  } else {
    config = starterConfig(spaces, VERSION);
  }

  const write = (rel: string, content: string) => {
    const full = join(root, ...rel.split('/'));
    makeDirectory(dirname(full));
    writeFileSync(full, content);
    written.push(rel);
  };
  write(CONFIG_FILE, redactor.redact(config));
  write(README_FILE, manifestsReadme(!!opts.fromServer));
  if (!opts.fromServer) {
    const modeline = schemaModeline({ schema: 'Rule.schema.json' }, EXAMPLE_FILE, { outDir: root, schemaBaseUrl: releaseSchemaUrl(VERSION) });
    write(EXAMPLE_FILE, exampleRule(modeline));
  }
  for (const file of kit) {
    const full = join(root, ...file.path.split('/'));
    makeDirectory(dirname(full));
    copyFileSync(file.from, full);
    written.push(file.path);
  }
  const gitignore = ensureIgnored(root);

  if (!opts.quiet) io.out(summary(dir, root, written, gitignore, exported, opts));
  return code;
}

/** The kit's files (its `.github/` folder), as found in the installed package now. */
function kitFiles(): Array<{ path: string; from: string }> {
  const base = join(packageRoot(), ...KIT);
  const github = join(base, '.github');
  if (!existsSync(github)) throw new UsageError(`the GitHub Actions kit is missing from the svcform package (${github}); reinstall svcform`);
  const out: Array<{ path: string; from: string }> = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ path: relative(base, full).split(sep).join('/'), from: full });
    }
  };
  walk(github);
  return out;
}

/**
 * `.svcform/` (the cache and the embedded emulator's state) in .gitignore: the file is created,
 * or the line appended to it; a line already there (with or without the slashes) is left alone.
 */
function ensureIgnored(root: string): 'created' | 'appended' | 'present' {
  const file = join(root, '.gitignore');
  if (!existsSync(file)) {
    writeFileSync(file, `# svcform's cache and the embedded emulator's state\n${IGNORED}\n`);
    return 'created';
  }
  const text = readFileSync(file, 'utf8');
  const bare = IGNORED.replace(/\/$/, '');
  if (text.split(/\r?\n/).some((line) => [bare, `${bare}/`, `/${bare}`, `/${bare}/`].includes(line.trim()))) return 'present';
  writeFileSync(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${IGNORED}\n`);
  return 'appended';
}

function summary(
  dir: string,
  root: string,
  written: string[],
  gitignore: 'created' | 'appended' | 'present',
  exported: { objects: number; files: number; variables: number } | undefined,
  opts: InitCommandOptions,
): string {
  const lines = [`Initialised ${display(root)}:`];
  if (exported) lines.push(`  ${MANIFESTS_DIR}/  ${exported.objects} exported object${exported.objects === 1 ? '' : 's'} in ${exported.files} file${exported.files === 1 ? '' : 's'}`);
  for (const rel of written) lines.push(`  ${rel}`);
  if (gitignore !== 'present') lines.push(`  .gitignore (${gitignore}: ${IGNORED})`);
  const here = relative(process.cwd(), root);
  const url = opts.fromServer && opts.url ? ` --url ${safeUrl(opts.url)}` : '';
  lines.push('', 'Next:');
  if (here) lines.push(`  cd ${/^[\w./-]+$/.test(dir) ? dir : JSON.stringify(dir)}`);
  if (exported?.variables) lines.push(`  # set the ${exported.variables} variable${exported.variables === 1 ? '' : 's'} listed in ${MANIFESTS_DIR}/variables.txt (connector secrets)`);
  lines.push(`  svcform validate ${MANIFESTS_DIR}`);
  if (exported) lines.push(`  svcform plan ${MANIFESTS_DIR}${url}      # nothing to change: the manifests are what the server holds`);
  else {
    lines.push(`  svcform plan ${MANIFESTS_DIR}       # against SVC_URL (and SVC_API_KEY), or --url: the example rule is a create`);
    lines.push(`  svcform apply ${MANIFESTS_DIR}`);
  }
  lines.push('  git add . && git commit -m "svcform: manifests and CI"');
  lines.push('  # in GitHub: the secrets SVC_URL and SVC_API_KEY the workflows in .github/workflows/ read (see the comments at their top)');
  return lines.join('\n');
}

function display(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}
