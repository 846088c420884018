import { describe, it } from 'node:test';
import { checkFixture, type FixtureCase } from './harness.js';

const S = 'Rule/ssh-brute-force';

/** Rule mistakes: each fixture under test/fixtures/invalid/rule and every error it must produce. */
const CASES: FixtureCase[] = [
  {
    fixture: 'rule/ssh.yaml',
    mistake: 'risk_score over 100 (the example of the issue, 4-space indentation)',
    errors: [`12:5 ${S}: spec.risk_score must be <= 100`],
  },
  {
    fixture: 'rule/threat-typo.yaml',
    mistake: 'a misspelt key inside a MITRE threat entry',
    errors: ['15:7 Rule/threat-typo: spec.threat[0].techniques is not a known field (did you mean technique?)'],
  },
  {
    fixture: 'rule/severity-typo.yaml',
    mistake: 'a misspelt severity, with a suggestion',
    errors: [`9:3 ${S}: spec.severity must be one of: low, medium, high, critical, not "hgih" (did you mean high?)`],
  },
  {
    fixture: 'rule/threshold-missing-threshold.yaml',
    mistake: 'a threshold rule without threshold (named by rule type, at the spec line)',
    errors: [`5:1 ${S}: spec.threshold is required for type threshold`],
  },
  {
    fixture: 'rule/field-of-another-type.yaml',
    mistake: 'fields of other rule types on a query rule',
    errors: ['13:3 Rule/suspicious-dns: spec.threat_index is not allowed for type query', '14:3 Rule/suspicious-dns: spec.anomaly_threshold is not allowed for type query'],
  },
  {
    fixture: 'rule/eql-wrong-language.yaml',
    mistake: 'an eql rule with language kuery',
    errors: ['11:3 Rule/shell-from-web-server: spec.language must be "eql" for type eql, not "kuery"'],
  },
  {
    fixture: 'rule/index-and-data-view.yaml',
    mistake: 'index and data_view_id together (a `not: {required: [a, b]}` schema)',
    errors: [`13:3 ${S}: spec.data_view_id and spec.index cannot be used together`],
  },
  {
    fixture: 'rule/unknown-field-typo.yaml',
    mistake: 'a misspelt field name: unknown field with a suggestion, and the real field missing',
    errors: [`6:1 ${S}: spec.risk_score is required`, `11:3 ${S}: spec.riskscore is not a known field (did you mean risk_score?)`],
  },
  {
    fixture: 'rule/interval-format.yaml',
    mistake: 'an interval in words instead of a duration',
    errors: [`12:3 ${S}: spec.interval must be a duration such as 30s, 5m, 1h or 1d, not "5 minutes"`],
  },
  {
    fixture: 'rule/interval-zero.yaml',
    mistake: 'an interval of 0m, which the rules client refuses (alerting validateDurationSchema)',
    errors: [`13:3 ${S}: spec.interval must be a duration such as 30s, 5m, 1h or 1d, not "0m"`],
  },
  {
    fixture: 'rule/machine-learning-mistakes.yaml',
    mistake: 'a machine_learning rule with a query and without anomaly_threshold',
    errors: ['6:1 Rule/unusual-login-activity: spec.anomaly_threshold is required for type machine_learning', '13:3 Rule/unusual-login-activity: spec.query is not allowed for type machine_learning'],
  },
  {
    fixture: 'rule/threat-mistakes.yaml',
    mistake: 'a MITRE technique without a name (its tactic reference without a scheme is no mistake: the route takes any string)',
    errors: [`19:11 ${S}: spec.threat[0].technique[0].name is required`],
  },
  {
    fixture: 'rule/action-mistakes.yaml',
    mistake: 'an unknown notifyWhen and an action without params',
    errors: [`17:34 ${S}: spec.actions[0].frequency.notifyWhen must be onActiveAlert, onThrottleInterval or onActionGroupChange, not "always"`, `18:7 ${S}: spec.actions[1].params is required`],
  },
  {
    fixture: 'rule/new-terms-too-many-fields.yaml',
    mistake: 'four new_terms_fields (at most 3)',
    errors: ['12:3 Rule/first-seen-sudo-user: spec.new_terms_fields must have at most 3 items'],
  },
  {
    fixture: 'rule/threat-match-missing.yaml',
    mistake: 'a threat_match rule without threat_query and threat_mapping',
    errors: ['5:1 Rule/bad-domain-lookup: spec.threat_query is required for type threat_match', '5:1 Rule/bad-domain-lookup: spec.threat_mapping is required for type threat_match'],
  },
  {
    fixture: 'rule/threshold-suppression-group-by.yaml',
    mistake: 'alert_suppression.group_by on a threshold rule',
    errors: [`15:5 ${S}: spec.alert_suppression.group_by is not allowed for type threshold`],
  },
  {
    fixture: 'rule/wrong-types.yaml',
    mistake: 'a quoted number, `yes` (a string in YAML 1.2) and a string for a list',
    errors: [`11:3 ${S}: spec.risk_score must be an integer, not "73"`, `12:3 ${S}: spec.enabled must be a boolean (true or false), not "yes"`, `13:3 ${S}: spec.tags must be a list, not "managed-by:svcform"`],
  },
  {
    fixture: 'rule/missing-required.yaml',
    mistake: 'description, severity and risk_score missing',
    errors: [`5:1 ${S}: spec.description is required`, `5:1 ${S}: spec.severity is required`, `5:1 ${S}: spec.risk_score is required`],
  },
  {
    fixture: 'rule/many-mistakes.yaml',
    mistake: 'five unrelated mistakes, all reported in file order',
    errors: [
      `9:3 ${S}: spec.description must not be empty`,
      `11:3 ${S}: spec.risk_score must be >= 0`,
      `13:3 ${S}: spec.max_signals must be >= 1`,
      `16:3 ${S}: spec.version must be an integer, not 1.5`,
      `17:60 ${S}: spec.references[1] must be a string, not a mapping`,
    ],
  },
  {
    fixture: 'rule/max-signals-infinite.yaml',
    mistake: '.inf, 1e400 and .nan (JSON cannot carry them; the schema minimum let +infinity through): one error each, no schema error on top',
    errors: [
      `13:3 ${S}: spec.risk_score must be a finite number, not infinity (.inf, or a number too large to represent such as 1e400)`,
      `15:3 ${S}: spec.max_signals must be a finite number, not infinity`,
      `16:3 ${S}: spec.concurrent_searches must be a number, not .nan (not a number)`,
    ],
  },
  {
    fixture: 'rule/id-control-characters.yaml',
    mistake: 'rule ids with a newline and an escape character (printed escaped, so each message stays on its line)',
    errors: [
      '5:3 Rule/ssh-brute\\nforce: metadata.name must be text without control characters such as a newline or a tab, not "ssh-brute\\nforce"',
      '19:3 Rule/ssh-\\u001b[31mred: metadata.name must be text without control characters such as a newline or a tab, not "ssh-\\u001b[31mred"',
    ],
  },
];

describe('svcform validate: Rule manifests', () => {
  for (const c of CASES) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});
