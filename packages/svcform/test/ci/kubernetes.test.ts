import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { buildProgram } from '../../src/cli/program.js';
import { parseDuration } from '../../src/cli/duration.js';
import { parseListen } from '../../src/cli/reconcile-status.js';
import { expandPaths } from '../../src/manifest/files.js';

/**
 * The Kubernetes recipe (examples/kubernetes): each object is checked against the Kubernetes API
 * schema of its kind (kubernetes-models, generated from the API's OpenAPI definitions), and what
 * ties the objects to svcform (arguments, the status port, probes, the Secret's keys) against the
 * CLI itself. No cluster runs here.
 */
const DIR = 'examples/kubernetes';

const KINDS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'batch/v1 CronJob': CronJob,
  'v1 Secret': Secret,
  'v1 Service': Service,
};

/** Throws, naming the file and object, when a document is not a valid object of a known kind. */
function validateObject(doc: any, where: string): void {
  const Model = KINDS[`${doc?.apiVersion} ${doc?.kind}`];
  if (!Model) throw new Error(`${where}: no schema for ${doc?.apiVersion} ${doc?.kind}`);
  try {
    new Model(doc).validate();
  } catch (err) {
    throw new Error(`${where}: ${doc.kind}/${doc.metadata?.name}: ${(err as Error).message}`);
  }
}

function objects(): Array<{ file: string; doc: any }> {
  const out: Array<{ file: string; doc: any }> = [];
  for (const file of readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    for (const d of parseAllDocuments(readFileSync(join(DIR, file), 'utf8'))) {
      assert.deepEqual(d.errors, [], file);
      out.push({ file, doc: d.toJS() });
    }
  }
  return out;
}

const find = (kind: string) => objects().find((o) => o.doc.kind === kind)!.doc;

/** Long options of a svcform command, as the real program declares them. */
function optionsOf(command: string): Set<string> {
  const program = buildProgram({ out: () => {}, err: () => {}, env: {}, outTty: false, errTty: false }, () => {});
  const cmd = program.commands.find((c) => c.name() === command)!;
  return new Set(cmd.options.map((o) => o.long!));
}

function flagValue(args: string[], flag: string): string | undefined {
  const at = args.findIndex((a) => a === flag || a.startsWith(flag + '='));
  if (at < 0) return undefined;
  return args[at].includes('=') ? args[at].slice(flag.length + 1) : args[at + 1];
}

describe('the Kubernetes recipe', () => {
  it('holds a Deployment, a Service, a CronJob and a Secret, each valid against its Kubernetes schema', () => {
    const all = objects();
    assert.deepEqual(all.map((o) => o.doc.kind).sort(), ['CronJob', 'Deployment', 'Secret', 'Service']);
    for (const { file, doc } of all) validateObject(doc, file);
  });

  it('fails on a broken object, so the check above can fail', () => {
    const deployment = structuredClone(find('Deployment'));
    deployment.spec.replicas = 'one';
    assert.throws(() => validateObject(deployment, 'deployment.yaml'), /deployment\.yaml: Deployment\/svcform-reconcile: .*replicas must be integer/);
    const cron = structuredClone(find('CronJob'));
    delete cron.spec.jobTemplate.spec.template.spec.containers[0].name;
    assert.throws(() => validateObject(cron, 'cronjob.yaml'), /containers\/0 must have required property name/);
    assert.throws(() => validateObject({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } }, 'typo.yaml'), /typo\.yaml: no schema for apps\/v1 Deploymnet/);
  });

  it('runs svcform reconcile with arguments the CLI accepts, probing and exposing the port it listens on', () => {
    const pod = find('Deployment').spec.template;
    const svcform = pod.spec.containers.find((c: any) => c.name === 'svcform');
    assert.deepEqual(svcform.command, ['svcform']);
    const args: string[] = svcform.args;
    assert.equal(args[0], 'reconcile');
    const known = optionsOf('reconcile');
    for (const a of args.filter((x) => x.startsWith('--'))) assert.ok(known.has(a.split('=')[0]), `svcform reconcile has no option ${a}`);
    assert.ok(parseDuration('--interval', flagValue(args, '--interval')!) >= 60_000);
    const { host, port } = parseListen(flagValue(args, '--listen')!);
    assert.equal(host, '0.0.0.0', 'the kubelet and Prometheus reach the pod address, not loopback');
    const metricsPort = svcform.ports.find((p: any) => p.name === 'metrics');
    assert.equal(metricsPort.containerPort, port);
    assert.deepEqual(svcform.readinessProbe.httpGet, { path: '/healthz', port: 'metrics' });
    assert.equal(svcform.livenessProbe.httpGet.port, 'metrics');
    assert.equal(pod.metadata.annotations['prometheus.io/port'], String(port));
    assert.equal(pod.metadata.annotations['prometheus.io/path'], '/metrics');
    const service = find('Service');
    assert.deepEqual(service.spec.selector, pod.metadata.labels);
    assert.equal(service.spec.ports[0].targetPort, 'metrics');
    // The manifests come through git-sync's link, on a volume both containers mount.
    const sync = pod.spec.containers.find((c: any) => c.name === 'git-sync');
    assert.ok(sync.args.includes('--link=repo') && sync.args.includes('--root=/git'));
    assert.ok(args[1].startsWith('/git/repo/'), args[1]);
    assert.deepEqual(svcform.volumeMounts.find((m: any) => m.name === 'repo'), { name: 'repo', mountPath: '/git', readOnly: true });
  });

  it('runs svcform drift on a schedule with arguments the CLI accepts', () => {
    const container = find('CronJob').spec.jobTemplate.spec.template.spec.containers[0];
    assert.equal(container.args[0], 'drift');
    const known = optionsOf('drift');
    for (const a of container.args.filter((x: string) => x.startsWith('--'))) assert.ok(known.has(a.split('=')[0]), `svcform drift has no option ${a}`);
  });

  it('takes the credentials from the Secret, which holds placeholders only', () => {
    const secret = find('Secret');
    const keys = new Set(Object.keys(secret.stringData));
    assert.deepEqual([...keys].sort(), ['SVC_API_KEY', 'SVC_URL']);
    assert.match(secret.stringData.SVC_API_KEY, /^REPLACE-/);
    assert.match(secret.stringData.SVC_URL, /\.example\./);
    for (const kind of ['Deployment', 'CronJob']) {
      const doc = find(kind);
      const spec = kind === 'Deployment' ? doc.spec.template.spec : doc.spec.jobTemplate.spec.template.spec;
      const env = spec.containers.find((c: any) => c.name === 'svcform').env;
      const refs = env.filter((e: any) => e.valueFrom?.secretKeyRef).map((e: any) => e.valueFrom.secretKeyRef);
      assert.ok(refs.length >= 2, kind);
      for (const ref of refs) assert.ok(ref.name === secret.metadata.name && keys.has(ref.key), `${kind}: ${JSON.stringify(ref)}`);
    }
  });

  it('is not read as svcform manifests by validate examples/', () => {
    const { files } = expandPaths(['examples']);
    assert.ok(files.length > 0);
    assert.deepEqual(files.filter((f) => f.includes(join('examples', 'kubernetes'))), []);
  });
});
