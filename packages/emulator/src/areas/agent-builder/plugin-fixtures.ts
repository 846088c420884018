/**
 * The plugin archives the emulator can "download" (it has no internet): each keyed as the server
 * fetches it, by the archive URL (a direct .zip, or the repository archive
 * `https://github.com/{owner}/{repo}/archive/{ref}.zip` of a GitHub URL) and, for a GitHub
 * archive, the plugin's folder in it. The content is our own, written for svcform's examples and
 * tests. Kept in code rather than data/ so the CLI's one-file bundle carries it.
 */

export interface PluginFixture {
  archive: string;
  path?: string;
  /** The archive's `.claude-plugin/plugin.json`. */
  manifest: { name: string; version?: string; description?: string; author?: { name: string }; homepage?: string; repository?: string; license?: string; keywords?: string[] };
  /** Its `skills/<dir>/SKILL.md` files: front matter name and description, the body, the files beside it. */
  skills: Array<{ dir: string; name?: string; description?: string; content: string; files?: Array<{ relativePath: string; content: string }> }>;
}

const REPO = 'https://github.com/svcform/agent-plugins/archive';

const threatHunting = (version: string): PluginFixture['manifest'] => ({
  name: 'threat-hunting',
  version,
  description: 'Hunting playbooks for the SOC: lateral movement and persistence.',
  author: { name: 'svcform examples' },
  license: 'Apache-2.0',
  keywords: ['security', 'hunting'],
});

const huntSkills: PluginFixture['skills'] = [
  {
    dir: 'lateral-movement',
    name: 'lateral-movement',
    description: 'Hunt for lateral movement from one host.',
    content: '# Lateral movement\n\nList remote logons to and from the host in the last 24 hours, then the processes they started.\n',
    files: [{ relativePath: './queries/remote-logons.md', content: 'event.category:authentication and winlog.logon.type:RemoteInteractive\n' }],
  },
  { dir: 'persistence', name: 'persistence', description: 'Hunt for persistence mechanisms.', content: '# Persistence\n\nReview new services, scheduled tasks and run keys created on the host.\n' },
];

export const PLUGIN_FIXTURES: readonly PluginFixture[] = [
  { archive: `${REPO}/main.zip`, path: 'plugins/threat-hunting', manifest: threatHunting('1.2.0'), skills: huntSkills },
  { archive: `${REPO}/v1.1.0.zip`, path: 'plugins/threat-hunting', manifest: threatHunting('1.1.0'), skills: huntSkills.slice(0, 1) },
  {
    archive: `${REPO}/main.zip`,
    path: 'plugins/incident-comms',
    manifest: { name: 'incident-comms', version: '0.3.0', description: 'Status updates and stakeholder notes during an incident.' },
    skills: [{ dir: 'status-update', description: 'Write an incident status update.', content: '# Status update\n\nSummarise impact, actions taken and next update time in five lines.\n' }],
  },
  {
    archive: 'https://plugins.example.com/triage-basics-1.0.0.zip',
    manifest: { name: 'triage-basics', version: '1.0.0', description: 'First steps for any alert.' },
    skills: [{ dir: 'first-look', name: 'first-look', description: 'First look at an alert.', content: '# First look\n\nRead the alert, its host and user, and the rule that fired.\n' }],
  },
];
