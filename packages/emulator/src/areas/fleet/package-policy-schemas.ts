import { schema, type Schema } from '../../config-schema.js';
import { namespaceError } from './common.js';

/**
 * The request bodies of package-policy create and update, as the server declares them
 * (x-pack/platform/plugins/shared/fleet/server/types/models/package_policy.ts and
 * types/rest_spec/package_policy.ts; field set checked against the OpenAPI document the public
 * Terraform provider checked in, generated/kbapi/oas-filtered.yaml at b76003905: `package_policy`,
 * `package_policy_request`, `package_policy_request_package`).
 *
 * Create takes oneOf[legacy create body, simplified body]; update takes oneOf[legacy update body,
 * simplified body] (wire-facts 15 fact 2). The legacy bodies carry `inputs` as an array (required on
 * create) and know `enabled`, `overrides`, `is_managed`, `spaceIds` and, on update, `version`; the
 * simplified body carries `inputs` as a map and knows none of those. Neither knows a `condition` on
 * an input or a stream.
 */

const { string, number, boolean, literal, any, maybe, oneOf, nullable, arrayOf, recordOf, object } = schema;

/** Package-policy namespaces may be blank (then the agent policy's namespace applies). */
const namespace = string({ check: (v) => (v === '' ? undefined : namespaceError(v)) });

/** Legacy vars: `{type?, value?, frozen?}` per variable. */
const configRecord = recordOf(object({ type: maybe(string()), value: maybe(any()), frozen: maybe(boolean()) }));

const legacyStream = object({
  id: maybe(string()),
  enabled: boolean(),
  keep_enabled: maybe(boolean()),
  release: maybe(oneOf([literal('ga'), literal('beta'), literal('experimental')])),
  data_stream: object({
    dataset: string(),
    type: string(),
    elasticsearch: maybe(object({
      privileges: maybe(object({ indices: maybe(arrayOf(string())) })),
      dynamic_dataset: maybe(boolean()),
      dynamic_namespace: maybe(boolean()),
    })),
  }),
  vars: maybe(configRecord),
  config: maybe(configRecord),
  compiled_stream: maybe(any()),
});

const legacyInput = object({
  id: maybe(string()),
  type: string(),
  policy_template: maybe(string()),
  enabled: boolean(),
  keep_enabled: maybe(boolean()),
  vars: maybe(configRecord),
  config: maybe(configRecord),
  // Request bodies may leave the streams out (the stored form always has them).
  streams: maybe(arrayOf(legacyStream)),
});

export const packageRef = object({
  name: string(),
  title: maybe(string()),
  version: string(),
  experimental_data_stream_features: maybe(arrayOf(object({
    data_stream: string(),
    features: object({
      synthetic_source: maybe(boolean()),
      tsdb: maybe(boolean()),
      doc_value_only_numeric: maybe(boolean()),
      doc_value_only_other: maybe(boolean()),
    }),
  }))),
  requires_root: maybe(boolean()),
  fips_compatible: maybe(boolean()),
});

const DATASTREAM_PERMISSION = /^(logs)|(metrics)|(traces)|(synthetics)|(profiling)-(.*)$/;
export const additionalDatastreamsPermissions = maybe(oneOf([
  literal(null),
  arrayOf(string(), {
    check: (values) => {
      const bad = (values as string[]).find((v) => !DATASTREAM_PERMISSION.test(v));
      return bad === undefined ? undefined : `${bad} is not a valid datastream permissions, it should match logs|metrics|traces|synthetics|profiling)-*`;
    },
  }),
]));

const policyId = maybe(oneOf([literal(null), string()]));
const outputId = maybe(oneOf([literal(null), string()]));
const supportsFlag = maybe(nullable(boolean()));

/** The legacy body fields, in the order the server declares (validation stops at the first problem). */
function legacyBody(overrides: Record<string, Schema>, extra: Record<string, Schema>): Schema {
  return object({
    name: string(),
    description: maybe(string()),
    namespace: maybe(namespace),
    policy_id: policyId,
    policy_ids: maybe(arrayOf(string())),
    output_id: outputId,
    cloud_connector_id: maybe(nullable(string())),
    enabled: maybe(boolean()),
    is_managed: maybe(boolean()),
    package: maybe(packageRef),
    inputs: arrayOf(legacyInput),
    vars: maybe(configRecord),
    overrides: maybe(oneOf([
      literal(null),
      object({
        inputs: maybe(recordOf(any(), {
          check: (v) => (Object.keys(v).some((k) => /^compiled_inputs(\.)?/.test(k) || /^compiled_stream(\.)?/.test(k)) ? 'Overrides of compiled_inputs and compiled_stream are not allowed' : undefined),
        })),
      }),
    ])),
    supports_agentless: supportsFlag,
    supports_cloud_connector: supportsFlag,
    additional_datastreams_permissions: additionalDatastreamsPermissions,
    spaceIds: maybe(arrayOf(string())),
    ...overrides,
    ...extra,
  });
}

const LegacyCreateBody = legacyBody({}, { id: maybe(string()), force: maybe(boolean()) });
const LegacyUpdateBody = legacyBody({ name: maybe(string()), inputs: maybe(arrayOf(legacyInput)) }, { version: maybe(string()), force: maybe(boolean()) });

/** Simplified vars: plain values (or a secret reference), never `{type, value}`. */
export const simplifiedVars = recordOf(nullable(oneOf([
  boolean(),
  string(),
  number(),
  arrayOf(string()),
  arrayOf(number()),
  object({ id: string(), isSecretRef: boolean() }),
])));

/** Simplified inputs: a map of input to `{enabled?, vars?, streams?}`, streams a map likewise. */
export const simplifiedInputs = recordOf(object({
  enabled: maybe(boolean()),
  vars: maybe(simplifiedVars),
  streams: maybe(recordOf(object({ enabled: maybe(boolean()), vars: maybe(simplifiedVars) }))),
}));

const SimplifiedBody = object({
  id: maybe(string()),
  name: string(),
  description: maybe(string()),
  namespace: maybe(string()),
  output_id: outputId,
  vars: maybe(simplifiedVars),
  inputs: maybe(simplifiedInputs),
  supports_agentless: supportsFlag,
  additional_datastreams_permissions: additionalDatastreamsPermissions,
  policy_id: policyId,
  policy_ids: maybe(arrayOf(string())),
  force: maybe(boolean()),
  package: packageRef,
});

/** POST /api/fleet/package_policies: oneOf[legacy create body, simplified body]. */
export const CreatePackagePolicyBody = oneOf([LegacyCreateBody, SimplifiedBody]);
/** PUT /api/fleet/package_policies/{id}: oneOf[legacy update body, simplified body]. */
export const UpdatePackagePolicyBody = oneOf([LegacyUpdateBody, SimplifiedBody]);
