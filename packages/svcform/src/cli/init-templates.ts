import { renderDocument } from '../engine/export.js';

/**
 * The texts `svcform init` writes (src/cli/init.ts decides where and whether). Pure functions of
 * their inputs, so what a new repository starts with is read here in one place.
 */

/** The folder the manifests go in: the one the GitHub Actions kit's MANIFESTS names. */
export const MANIFESTS_DIR = 'manifests';
/** The example manifest, relative to the repository (without --from-server only). */
export const EXAMPLE_FILE = `${MANIFESTS_DIR}/rules/example-rule.yaml`;
/** The tag the starting manage scope owns rules by, and the example rule carries. */
export const OWNED_TAG = 'managed-by:svcform';
/** What .gitignore must hold: the cache and the embedded emulator's state (docs/architecture.md). */
export const IGNORED = '.svcform/';

const comment = (lines: string[]) => lines.map((l) => (l ? `# ${l}` : '#')).join('\n') + '\n';

/**
 * svcform.yaml for a repository that starts empty: rules carrying the tag are owned, nothing else,
 * so a first apply against a deployment that already holds objects deletes none of them.
 */
export function starterConfig(spaces: string[], version: string): string {
  return `${comment([
    `svcform configuration, written by svcform init ${version}.`,
    '',
    'No url here: name the server with SVC_URL (and SVC_API_KEY) or --url, as the CI workflows do.',
  ])}space: ${spaces[0]}

${comment([
  'What svcform owns, and so may delete once its manifest is removed. Objects outside every',
  'scope are reported as unmanaged and never touched. Widen the scopes as you adopt more.',
])}manage:
  - kind: Rule
    spaces: [${spaces.join(', ')}]
    selector: {tags: [${OWNED_TAG}]}   # only rules that carry this tag
  # - kind: Connector
  #   spaces: [${spaces[0]}]
  #   selector: {namePrefix: team-}       # connector ids that start with team-
`;
}

/** svcform.yaml after `--from-server`: svcform owns exactly what was exported, by name. */
export function adoptedConfig(spaces: string[], scopes: unknown[], version: string, url: string): string {
  return (
    comment([
      `svcform configuration, written by svcform init --from-server ${version} from ${url}.`,
      '',
      'No url here: name the server with SVC_URL (and SVC_API_KEY) or --url, as the CI workflows do.',
      'svcform owns exactly the objects exported into this folder (manage, by name): it may update',
      'them, and delete one whose manifest is removed. Objects created on the server since are',
      'reported as unmanaged and never touched. Widen the selectors when you are ready to own more.',
    ]) + renderDocument({ space: spaces[0], manage: scopes })
  );
}

/** The example: a disabled rule in the starting scope, so plan, apply and a later delete all show. */
export function exampleRule(modeline: string): string {
  return `${modeline}
#
${comment([
  'An example written by svcform init: a disabled detection rule. Its tag puts it in the manage',
  'scope of svcform.yaml, so svcform owns it: plan shows it as a create, and once applied,',
  'deleting this file deletes the rule at the next apply. The first line lets editors with the',
  'YAML language server complete and check the fields against the Rule schema.',
])}apiVersion: svcform/v1
kind: Rule
metadata:
  name: example-failed-logins
spec:
  type: query
  name: 'Example: many failed logins'
  description: Written by svcform init as an example of a rule kept in Git. Disabled.
  severity: low
  risk_score: 21
  enabled: false
  language: kuery
  index: [logs-*]
  query: 'event.category:authentication and event.outcome:failure'
  tags: [${OWNED_TAG}]
`;
}

/** manifests/README.md: what the folder is and the commands that read it. */
export function manifestsReadme(fromServer: boolean): string {
  const origin = fromServer
    ? [
        'The manifests here were exported from the server by `svcform init --from-server`, one file per',
        'kind and space. Connector secrets are `${env:NAME}` placeholders: `variables.txt` lists the',
        'variables to set (never their values). `.svcform-export.json` records what the export wrote.',
      ]
    : [
        '`rules/example-rule.yaml` is an example: a disabled rule svcform owns. Replace it with your own',
        'manifests (or `svcform export` what a deployment already has).',
      ];
  return `# Manifests

svcform reads every \`.yaml\` and \`.yml\` file under this folder (folders whose name starts with
a dot are skipped). Each document is one object: \`apiVersion: svcform/v1\`, \`kind\`,
\`metadata.name\` and \`spec\`. \`svcform.yaml\` here is the configuration: the default space and
the \`manage\` scopes that say what svcform owns, and so may delete.

${origin.join('\n')}

A first line \`# yaml-language-server: $schema=...\` names the kind's JSON Schema, so editors with
the YAML language server complete and check fields as you type.

\`\`\`sh
svcform validate ${MANIFESTS_DIR}    # offline checks
svcform plan ${MANIFESTS_DIR}        # what would change on the server (SVC_URL, SVC_API_KEY)
svcform apply ${MANIFESTS_DIR}       # make it so
\`\`\`

The workflows in \`.github/workflows/\` run validate and plan on every pull request that touches
this folder, apply on merge, and drift every night.
`;
}
