import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

/** Mistakes in FleetOutput and AnonymizationField manifests: each fixture and every error it must produce. */
const CASES: FixtureCase[] = [
  {
    // The route's body union takes per type only that type's fields (OAS new_output_logstash, additionalProperties: false).
    fixture: 'fleet-output/kafka-fields-on-logstash.yaml',
    mistake: 'a kafka field and a preset on a logstash output',
    errors: ["9:3 FleetOutput/soc-logstash: spec.topic is not allowed for type logstash",
      "10:3 FleetOutput/soc-logstash: spec.preset is not allowed for type logstash"],
  },
  {
    fixture: 'fleet-output/kafka-without-auth-type.yaml',
    mistake: 'a kafka output without auth_type (OAS new_output_kafka required)',
    errors: ["5:1 FleetOutput/soc-kafka: spec.auth_type is required for type kafka"],
  },
  {
    fixture: 'fleet-output/elasticsearch-host-without-scheme.yaml',
    mistake: 'an Elasticsearch host without http(s):// and a kafka-only field',
    errors: ["10:7 FleetOutput/soc-es: spec.hosts[1] must be a URL starting with http:// or https://, not \"es-2.soc.example:9200\"",
      "11:3 FleetOutput/soc-es: spec.required_acks is not allowed for type elasticsearch"],
  },
  {
    fixture: 'anonymization-field/id-denied.yaml',
    mistake: '_id denied: attack discovery cannot run (service-api.md line 437)',
    errors: ["6:3 AnonymizationField/_id: spec.allowed must stay true for _id: every attack discovery generation fails without it (the server stores the field, then refuses each run); set allowed: true, or leave _id out of the manifests"],
  },
  {
    fixture: 'anonymization-field/flag-as-string.yaml',
    mistake: 'a flag as a string and a misspelt key',
    errors: ["6:3 AnonymizationField/host.name: spec.allowed must be a boolean (true or false), not \"yes\"",
      "7:3 AnonymizationField/host.name: spec.anonymised is not a known field (did you mean anonymized?)"],
  },
];

describe('svcform validate: FleetOutput and AnonymizationField manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
