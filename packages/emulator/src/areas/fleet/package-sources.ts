import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseErrorWords, yaml } from '../../yaml.js';
import { packageFromRegistryShape, PackageFormatError } from './package-spec.js';
import type { CatalogPackage } from './package-types.js';

/**
 * Where the emulator's package registry reads packages from: folders of packages in the
 * package-spec layout (`<name>-<version>/manifest.yml`, `data_stream/<ds>/manifest.yml`,
 * `data_stream/<ds>/fields/*.yml`), and an HTTP package registry (the real server's
 * `xpack.fleet.registryUrl`) through the routes it answers: `/search?all=true` and
 * `/package/<name>/<version>/` (the package info as JSON), `/package/<name>/<version>/<file>`.
 */

export interface PackageVersion {
  name: string;
  version: string;
}

export interface PackageSource {
  /** Every package version the source has. */
  versions(): Promise<PackageVersion[]>;
  load(name: string, version: string): Promise<CatalogPackage | undefined>;
  /** A file of a package as text, by its path inside the package; undefined when it has none. */
  file(name: string, version: string, path: string): Promise<string | undefined>;
}

/**
 * A failure to read a package: the package manager answers it with `status` (fleet
 * errors/handlers.ts getHTTPResponseCode: a registry that cannot be reached is 502, a registry's
 * 4xx/5xx or a package that cannot be read 500).
 */
export class PackageSourceError extends Error {
  constructor(message: string, readonly status: 500 | 502 = 500) {
    super(message);
  }
}

const FOLDER = /^([a-z0-9_]+)-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;
/** Package files are small text files; anything larger is not read. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

function parseYaml(text: string, where: string): unknown {
  try {
    return yaml().parse(text);
  } catch (err) {
    throw new PackageSourceError(`${where}: ${parseErrorWords(err)}`);
  }
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return out;
}

/** A folder holding one sub-folder per package version. */
export class DirectorySource implements PackageSource {
  constructor(readonly dir: string) {}

  async versions(): Promise<PackageVersion[]> {
    if (!existsSync(this.dir) || !statSync(this.dir).isDirectory()) throw new PackageSourceError(`package folder ${this.dir} does not exist`);
    const out: PackageVersion[] = [];
    for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
      const m = entry.isDirectory() ? FOLDER.exec(entry.name) : null;
      if (m && existsSync(join(this.dir, entry.name, 'manifest.yml'))) out.push({ name: m[1], version: m[2] });
    }
    return out;
  }

  async load(name: string, version: string): Promise<CatalogPackage | undefined> {
    const root = join(this.dir, `${name}-${version}`);
    const manifestFile = join(root, 'manifest.yml');
    if (!existsSync(manifestFile)) return undefined;
    const manifest = parseYaml(readFileSync(manifestFile, 'utf8'), manifestFile) as Record<string, any>;
    const dataStreams: Record<string, unknown>[] = [];
    const streamsDir = join(root, 'data_stream');
    if (existsSync(streamsDir)) {
      for (const folder of readdirSync(streamsDir).sort()) {
        const file = join(streamsDir, folder, 'manifest.yml');
        if (!existsSync(file)) continue;
        const ds = parseYaml(readFileSync(file, 'utf8'), file);
        if (ds && typeof ds === 'object') dataStreams.push({ ...(ds as object), path: folder });
      }
    }
    try {
      const pkg = packageFromRegistryShape({ ...manifest, data_streams: dataStreams }, listFiles(root));
      if (pkg.name !== name || pkg.version !== version) throw new PackageSourceError(`${manifestFile}: names ${pkg.name}-${pkg.version}, not ${name}-${version} as its folder`);
      return pkg;
    } catch (err) {
      if (err instanceof PackageFormatError) throw new PackageSourceError(`${manifestFile}: ${err.message}`);
      throw err;
    }
  }

  async file(name: string, version: string, path: string): Promise<string | undefined> {
    const root = join(this.dir, `${name}-${version}`);
    const parts = path.split('/');
    // Only paths inside the package: no empty, `.` or `..` segment.
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) return undefined;
    const full = join(root, ...parts);
    if (!existsSync(full)) return undefined;
    const stat = statSync(full);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return readFileSync(full, 'utf8');
  }
}

/** The packages shipped with svcform: data/packages, found from this module wherever it runs (src, dist, the bundle). */
export function bundledPackagesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'data', 'packages');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new PackageSourceError(`cannot find data/packages above ${fileURLToPath(import.meta.url)}`);
}

/** A package registry over HTTP (the package registry's own API). */
export class HttpRegistrySource implements PackageSource {
  private readonly base: string;

  constructor(url: string) {
    this.base = url.replace(/\/+$/, '');
  }

  private async get(path: string): Promise<Response | undefined> {
    try {
      const res = await fetch(`${this.base}${path}`, { signal: AbortSignal.timeout(30_000) });
      if (res.status === 404) return undefined;
      if (!res.ok) throw new PackageSourceError(`package registry ${this.base}${path} answered ${res.status}`);
      return res;
    } catch (err) {
      if (err instanceof PackageSourceError) throw err;
      throw new PackageSourceError(`Error connecting to package registry at ${this.base}: ${(err as Error).message}`, 502);
    }
  }

  async versions(): Promise<PackageVersion[]> {
    const res = await this.get('/search?all=true&prerelease=true');
    const body = res ? await res.json().catch(() => undefined) : [];
    if (!Array.isArray(body)) throw new PackageSourceError(`package registry ${this.base}/search did not answer a list`);
    return body.filter((p) => p && typeof p.name === 'string' && typeof p.version === 'string').map((p) => ({ name: p.name, version: p.version }));
  }

  async load(name: string, version: string): Promise<CatalogPackage | undefined> {
    const res = await this.get(`/package/${encodeURIComponent(name)}/${encodeURIComponent(version)}/`);
    if (!res) return undefined;
    const info = (await res.json().catch(() => undefined)) as Record<string, any> | undefined;
    const prefix = `/package/${name}/${version}/`;
    // The registry lists a package's files as `/package/<name>/<version>/<path>`.
    const files = (Array.isArray(info?.assets) ? info!.assets : []).filter((a: unknown) => typeof a === 'string' && a.startsWith(prefix)).map((a: string) => a.slice(prefix.length));
    const dataStreams = (Array.isArray(info?.data_streams) ? info!.data_streams : []).map((ds: any) => ({ ...ds, path: ds?.path ?? '' }));
    try {
      return packageFromRegistryShape(info && { ...info, data_streams: dataStreams }, files);
    } catch (err) {
      if (err instanceof PackageFormatError) throw new PackageSourceError(`package registry ${this.base}${prefix}: ${err.message}`);
      throw err;
    }
  }

  async file(name: string, version: string, path: string): Promise<string | undefined> {
    const res = await this.get(`/package/${encodeURIComponent(name)}/${encodeURIComponent(version)}/${path.split('/').map(encodeURIComponent).join('/')}`);
    return res ? res.text() : undefined;
  }
}
