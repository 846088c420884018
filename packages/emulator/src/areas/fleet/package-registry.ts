import type { EmulatorContext } from '../../context.js';
import { EmuError, notFound } from '../../errors.js';
import { bundledPackagesDir, DirectorySource, HttpRegistrySource, PackageSourceError, type PackageSource } from './package-sources.js';
import { compareVersions, type CatalogPackage } from './package-types.js';

/**
 * The emulator's package registry: the packages its package manager can install, read from the
 * folders given with `--packages` first, then from the HTTP registry of `--registry` or else the
 * packages bundled with svcform (data/packages). Like the real server (wire-facts §16 #9), every
 * package and version the registry has can be installed and take package policies. A source is
 * read when first needed and kept for the life of the emulator.
 */
export class PackageRegistry {
  private index?: Promise<Map<string, Array<{ version: string; source: PackageSource }>>>;
  private readonly loaded = new Map<string, Promise<CatalogPackage | undefined>>();

  constructor(private readonly sources: PackageSource[]) {}

  private byName() {
    this.index ??= (async () => {
      const out = new Map<string, Array<{ version: string; source: PackageSource }>>();
      for (const source of this.sources) {
        for (const { name, version } of await source.versions()) {
          const versions = out.get(name) ?? [];
          // An earlier source (a --packages folder) wins over a later one for the same version.
          if (!versions.some((v) => v.version === version)) versions.push({ version, source });
          out.set(name, versions);
        }
      }
      for (const versions of out.values()) versions.sort((a, b) => compareVersions(a.version, b.version));
      return out;
    })().catch((err) => {
      this.index = undefined;
      throw err;
    });
    return this.index;
  }

  async names(): Promise<string[]> {
    return [...(await this.byName()).keys()].sort();
  }

  /** The versions of a package, oldest first. */
  async versions(name: string): Promise<string[]> {
    return ((await this.byName()).get(name) ?? []).map((v) => v.version);
  }

  async find(name: string, version: string): Promise<CatalogPackage | undefined> {
    const entry = ((await this.byName()).get(name) ?? []).find((v) => v.version === version);
    if (!entry) return undefined;
    const key = `${name}-${version}`;
    let pkg = this.loaded.get(key);
    if (!pkg) {
      pkg = entry.source.load(name, version);
      this.loaded.set(key, pkg);
      pkg.catch(() => this.loaded.delete(key));
    }
    return pkg;
  }

  /** The newest release; a prerelease only when the package has nothing else. */
  async latest(name: string): Promise<CatalogPackage | undefined> {
    const versions = await this.versions(name);
    const releases = versions.filter((v) => !v.includes('-'));
    const newest = (releases.length ? releases : versions).at(-1);
    return newest === undefined ? undefined : this.find(name, newest);
  }

  /** The newest version of every package. */
  async latestOfEach(): Promise<CatalogPackage[]> {
    const all = await Promise.all((await this.names()).map((n) => this.latest(n)));
    return all.filter((p): p is CatalogPackage => !!p);
  }

  async file(name: string, version: string, path: string): Promise<string | undefined> {
    const entry = ((await this.byName()).get(name) ?? []).find((v) => v.version === version);
    return entry?.source.file(name, version, path);
  }
}

const registries = new WeakMap<EmulatorContext, PackageRegistry>();

/** The registry of an emulator (made from its settings on first use). */
export function packageRegistry(ctx: EmulatorContext): PackageRegistry {
  let registry = registries.get(ctx);
  if (!registry) {
    const { dirs, registryUrl } = ctx.settings.packages;
    const sources: PackageSource[] = dirs.map((d) => new DirectorySource(d));
    sources.push(registryUrl ? new HttpRegistrySource(registryUrl) : new DirectorySource(bundledPackagesDir()));
    registry = new PackageRegistry(sources);
    registries.set(ctx, registry);
  }
  return registry;
}

/** A source that cannot be read is the registry failing: the server answers 502 or 500 with the reason. */
async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof PackageSourceError) throw new EmuError(err.status, err.message, 'platform');
    throw err;
  }
}

export const latestPackage = (ctx: EmulatorContext, name: string) => guarded(packageRegistry(ctx).latest(name));
export const findPackage = (ctx: EmulatorContext, name: string, version: string) => guarded(packageRegistry(ctx).find(name, version));
export const latestOfEach = (ctx: EmulatorContext) => guarded(packageRegistry(ctx).latestOfEach());
export const packageFile = (ctx: EmulatorContext, name: string, version: string, path: string) => guarded(packageRegistry(ctx).file(name, version, path));

/**
 * A package version or the server's 404s (fleet services/epm/registry: PackageNotFoundError):
 * `[<name>] package not found in registry` for an unknown package, `<name>@<version> not found`
 * for an unknown version of a known one.
 */
export async function packageOrThrow(ctx: EmulatorContext, name: string, version: string): Promise<CatalogPackage> {
  if (!(await latestPackage(ctx, name))) throw notFound(`[${name}] package not found in registry`);
  const pkg = await findPackage(ctx, name, version);
  if (!pkg) throw notFound(`${name}@${version} not found`);
  return pkg;
}

export async function latestOrThrow(ctx: EmulatorContext, name: string): Promise<CatalogPackage> {
  const pkg = await latestPackage(ctx, name);
  if (!pkg) throw notFound(`[${name}] package not found in registry`);
  return pkg;
}
