import { schema, validateRequest } from '../../config-schema.js';
import { EmuError, badRequest, notFound } from '../../errors.js';
import type { StoredSkill } from './skills.js';
import { PLUGIN_FIXTURES, type PluginFixture } from './plugin-fixtures.js';

/**
 * Agent-builder plugins (technical preview since 9.4.0: service-api.md line 670; routes not shown,
 * line 412). Real routes K-AB/plugins.ts: list `GET /api/agent_builder/plugins`, get and delete
 * `/plugins/{pluginId}`, install `POST /plugins/install` `{url, plugin_name?}`. The install
 * (services/plugins/plugin_service.ts installPlugin) classifies the URL
 * (utils/sourcing/resolve_plugin_url.ts, parse_github_url.ts), downloads the archive
 * (download_plugin.ts), refuses a second plugin of one name, then stores the plugin under a random
 * id and one skill per skill folder, `<plugin name>-<folder>`. There is no internet here: archives
 * come from the emulator's own fixtures (plugin-fixtures.ts), keyed by the URL the server would
 * download; any other download fails as a real one answering 404 would.
 */

export interface StoredPlugin {
  id: string;
  name: string;
  version: string;
  description: string;
  manifest: PluginFixture['manifest'];
  source_url: string;
  skill_ids: string[];
  created_at: string;
  updated_at: string;
}

/** The route's body (config-schema: unknown keys refused). */
const InstallBody = schema.object({ url: schema.string(), plugin_name: schema.maybe(schema.string()) });

const GITHUB = /^https?:\/\/github\.com\/(?<owner>[^/]+)\/(?<repo>[^/]+?)(?:\.git)?(?:\/(?:tree|blob)\/(?<ref>[^/]+)(?:\/(?<path>.+))?)?$/;

/** What the server downloads for a URL: the archive's URL and, for GitHub, the plugin's folder in it. */
export interface ResolvedUrl {
  downloadUrl: string;
  github: boolean;
  pluginPath?: string;
}

/**
 * resolve_plugin_url.ts: a URL whose path ends `.zip` is downloaded as it is; a GitHub repository,
 * folder (`/tree/`) or manifest (`/blob/.../plugin.json`) URL downloads the repository archive of
 * its ref (default `main`) and keeps the plugin's folder; anything else is a 400.
 */
export function resolvePluginUrl(url: string): ResolvedUrl {
  let zip = false;
  try {
    zip = new URL(url).pathname.endsWith('.zip');
  } catch {
    zip = false;
  }
  if (zip) return { downloadUrl: url, github: false };
  const m = GITHUB.exec(url);
  if (!m?.groups) throw badRequest(`Unsupported plugin URL: "${url}". Provide a GitHub repository URL or a direct link to a .zip file.`);
  const { owner, repo, ref, path } = m.groups;
  return { downloadUrl: `https://github.com/${owner}/${repo}/archive/${ref ?? 'main'}.zip`, github: true, pluginPath: pluginFolder(path?.replace(/\/+$/, '')) };
}

/** The plugin's folder from the path of a GitHub URL (resolve_plugin_url.ts derivePluginPath). */
function pluginFolder(path: string | undefined): string | undefined {
  if (!path || path === 'plugin.json' || path === '.claude-plugin/plugin.json') return undefined;
  for (const manifest of ['/.claude-plugin/plugin.json', '/plugin.json']) if (path.endsWith(manifest)) return path.slice(0, -manifest.length);
  return path;
}

/**
 * The archive a URL resolves to, from the fixtures. The download and archive errors are plain
 * errors in the server (PluginArchiveError), which the route wrapper answers with a 500 and the
 * error's message (routes/wrap_handler.ts).
 */
function fetchArchive(resolved: ResolvedUrl): PluginFixture {
  // The fixture host answers the archive of a path whatever the query (a download token, say).
  const archive = PLUGIN_FIXTURES.filter((f) => f.archive === withoutQuery(resolved.downloadUrl));
  if (!archive.length) throw new EmuError(500, `Failed to download plugin archive from ${resolved.downloadUrl}: 404 Not Found`, 'platform');
  const found = archive.find((f) => (f.path ?? undefined) === resolved.pluginPath);
  if (!found) throw new EmuError(500, `No files found at path "${resolved.pluginPath ?? '/'}" in the downloaded archive.`, 'platform');
  return found;
}

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** Install: the plugin and the skills it brings; `existingByName` finds a plugin of the space by name. */
export function installPlugin(body: unknown, existingByName: (name: string) => StoredPlugin | undefined, id: string, now: Date): { plugin: StoredPlugin; skills: StoredSkill[] } {
  const value = validateRequest<{ url: string; plugin_name?: string }>(InstallBody, body);
  const fixture = fetchArchive(resolvePluginUrl(value.url));
  const name = value.plugin_name ?? fixture.manifest.name;
  const existing = existingByName(name);
  if (existing) throw badRequest(`Plugin "${name}" is already installed (id: ${existing.id}, version: ${existing.version})`);
  const skills: StoredSkill[] = fixture.skills.map((s) => ({
    id: `${name}-${s.dir}`,
    name: s.name ?? s.dir,
    description: s.description ?? '',
    content: s.content,
    referenced_content: (s.files ?? []).map((f) => ({ name: f.relativePath, relativePath: f.relativePath, content: f.content })),
    tool_ids: [],
    readonly: true,
    plugin_id: id,
  }));
  const plugin: StoredPlugin = {
    id,
    name,
    version: fixture.manifest.version ?? '0.0.0',
    description: fixture.manifest.description ?? '',
    manifest: structuredClone(fixture.manifest),
    source_url: value.url,
    skill_ids: skills.map((s) => s.id),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  return { plugin, skills };
}

/** The answer of get, list and install (plugins/client/converters.ts toPluginDefinition). */
export function renderPlugin(p: StoredPlugin): Record<string, unknown> {
  const { author, homepage, repository, license, keywords } = p.manifest;
  return {
    id: p.id,
    name: p.name,
    version: p.version,
    description: p.description,
    manifest: { author, homepage, repository, license, keywords },
    source_url: p.source_url,
    skill_ids: [...p.skill_ids],
    unmanaged_assets: {},
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/** Wording inferred: the registry's not-found error is not in the source read. */
export function pluginNotFound(id: string): EmuError {
  return notFound(`Plugin with id '${id}' not found`);
}

/** The 409 of a delete without force while agents name the plugin (K-AB/plugins.ts, PLUGIN_USED_BY_AGENTS). */
export function pluginInUse(agents: Array<{ id: string; name: string }>): EmuError {
  return new EmuError(409, 'Plugin is used by one or more agents. Use force=true to remove it from agents and delete.', 'platform', { code: 'PLUGIN_USED_BY_AGENTS', agents });
}
