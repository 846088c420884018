import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';
import { isMissingLanguageModule, preloadLanguages, readyLanguage } from '@svcform/query/preload.js';

/**
 * validate parses every rule query in its language and reports a mistake at its line and column
 * inside the YAML string, whatever the string's style; fields the query names must be known.
 */

function rule(name: string, specLines: string[], metadata: string[] = []): string {
  return ['apiVersion: svcform/v1', 'kind: Rule', 'metadata:', `  name: ${name}`, ...metadata, 'spec:', '  name: n', '  description: d', '  severity: low', '  risk_score: 1', ...specLines, ''].join('\n');
}

async function validate(files: Record<string, string>, ...flags: string[]) {
  const dir = repo(files);
  const run = await cli(['validate', dir, ...flags]);
  // Positions are shown relative to the working directory; only the part after the directory matters here.
  return { ...run, err: run.err.split(dir + '/').join('').split(join(dir, '/')).join('') };
}

describe('query checks in validate', () => {
  it('points into a single-quoted one-line query (the fast YAML reader)', async () => {
    const r = await validate({ 'rules/ssh.yaml': rule('ssh', ['  type: query', "  query: 'event.category:(authentication and'"]) });
    assert.equal(r.code, 1);
    // line 11: `  query: '...'`; the value starts at column 11, the end of the query is 34 characters on
    assert.match(r.err, /rules\/ssh\.yaml:11:45: Rule\/ssh: query: expected "\)" \(kuery\)/);
  });

  it('points into a folded block scalar, on the line and column of the mistake', async () => {
    const r = await validate({
      'r.yaml': rule('folded', ['  type: query', '  query: >-', '    event.category:process and', '    process.name:(cmd.exe or', '    user.name:root']),
    });
    // The value is `event.category:process and process.name:(cmd.exe or user.name:root`: inside the
    // parentheses `user.name` is a value, so the `:` after it (line 14, column 14) is the mistake.
    assert.match(r.err, /r\.yaml:14:14: Rule\/folded: query: expected and, or or "\)", found ":" \(kuery\)/);
  });

  it('points into a literal block scalar with keep chomping, and into a double-quoted string with escapes', async () => {
    const literal = await validate({ 'r.yaml': rule('lit', ['  type: query', '  language: lucene', '  query: |+', '    process.name:cmd.exe AND', '      user.name:[1 TO 5 OR x', '']) });
    // The value keeps the second line's extra indentation; `O` of OR (line 14, column 25) is where ] or } belongs
    assert.match(literal.err, /r\.yaml:14:25: Rule\/lit: query: expected ] or }, found "O" \(lucene\)/);
    const quoted = await validate({ 'r.yaml': rule('dq', ['  type: query', '  query: "a:\\"x\\" and \\', '    \\u0062:)"']) });
    // value `a:"x" and b:)` (the escaped line break joins the lines): the `)` is on line 12, after `\u0062:` (column 12)
    assert.match(quoted.err, /r\.yaml:12:12: Rule\/dq: query: expected a value, "\{" or "\(", found "\)" \(kuery\)/);
  });

  it('checks threat_query in its own language', async () => {
    const r = await validate({ 'r.yaml': rule('tm', ['  type: threat_match', "  query: 'source.ip:*'", '  threat_index: [ti]', '  threat_language: lucene', "  threat_query: 'threat.indicator.ip:[1 TO'", '  threat_mapping: [{entries: [{field: source.ip, type: mapping, value: threat.indicator.ip}]}]']) });
    assert.match(r.err, /r\.yaml:14:43: Rule\/tm: threat_query: expected a range bound \(lucene\)/);
  });

  it('warns about a near miss of a known field with a suggestion; --strict makes every unknown field an error; required_fields and field lists declare fields', async () => {
    const files = { 'r.yaml': rule('f', ['  type: query', "  query: 'proces.name:cmd.exe and my.custom:1 and other.one:2 and process.*:x'", '  required_fields: [{name: my.custom, type: keyword}]']) };
    const warned = await validate(files);
    assert.equal(warned.code, 0);
    assert.match(warned.err, /r\.yaml:11:11: warning: Rule\/f: query: field "proces\.name" is not a known field; did you mean process\.name\?/);
    // other.one is near nothing known: an integration's or the user's own field, not svcform's to judge
    assert.doesNotMatch(warned.err, /my\.custom|process\.\*|other\.one/);
    const strict = await validate(files, '--strict');
    assert.equal(strict.code, 1);
    assert.match(strict.err, /r\.yaml:11:11: Rule\/f: query: field "proces\.name"/);
    assert.match(strict.err, /r\.yaml:11:51: Rule\/f: query: field "other\.one" is not in required_fields, ECS or the project's field lists/);
    const listed = await validate({ ...files, 'svcform.yaml': 'fields: [fields.txt, more.json]\n', 'fields.txt': '# ours\nother.one keyword\n', 'more.json': '["proces.name", {"name": "x", "type": "keyword"}]\n' }, '--strict');
    assert.equal(listed.code, 0, listed.err);
  });

  it('knows ECS as documents carry it: constant_keyword, multi-fields, open objects; integration fields pass (production rules)', async () => {
    const query = [
      'data_stream.dataset:"aws.cloudtrail" and data_stream.namespace:default and data_stream.type:logs',
      'process.command_line.text:whoami and labels.is_team_source:true and container.labels.app:web',
      'aws.cloudtrail.user_identity.arn:x and okta.target.id:y and process.Ext.token.integrity_level_name:high',
    ].join(' and ');
    const r = await validate({ 'r.yaml': rule('ecs', ['  type: query', `  query: '${query}'`, '  related_integrations: [{package: aws, version: ^2.0.0}]']) });
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /warning/);
  });

  it('a near miss repeated across rules is one line with a count; --json keeps every finding', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`r${i}.yaml`] = rule(`n${i}`, ['  type: query', "  query: 'user.nmae:root'"]);
    const r = await validate(files);
    assert.equal(r.code, 0, r.err);
    const lines = r.err.split('\n').filter((l) => l.includes('user.nmae'));
    assert.equal(lines.length, 1, r.err);
    assert.match(lines[0]!, /r0\.yaml:11:11: warning: Rule\/n0: query: field "user\.nmae" is not a known field; did you mean user\.name\? .* \[and 4 more: r1\.yaml:11, r2\.yaml:11, r3\.yaml:11, …; --json lists every one\]$/);
    const json = await validate(files, '--json');
    assert.equal(JSON.parse(json.out).diagnostics.length, 5);
  });

  it('metadata.checks.queryFields: false turns the field check off for one rule, and is never sent', async () => {
    const r = await validate({ 'r.yaml': rule('off', ['  type: query', "  query: 'nope.field:1'"], ['  checks: {queryFields: false}']) }, '--strict');
    assert.equal(r.code, 0, r.err);
  });

  it('metadata.checks.querySyntax: false lets a query svcform cannot read go to the server, which decides', async () => {
    const files = (metadata: string[]) => ({ 'r.yaml': rule('syn', ['  type: query', "  query: 'event.category:(process and'"], metadata) });
    assert.equal((await validate(files([]))).code, 1);
    const off = await validate(files(['  checks: {querySyntax: false}']));
    assert.equal(off.code, 0, off.err);
    assert.doesNotMatch(off.err, /expected/);
  });

  it('svcform.yaml checks: switch a check for the whole repository or one kind; metadata.checks wins; a wrong switch is an error at its line', async () => {
    const rules = {
      'a.yaml': rule('a', ['  type: query', "  query: 'nope.field:1'"]),
      'b.yaml': rule('b', ['  type: query', "  query: 'event.category:(process and'"]),
    };
    const plain = await validate(rules, '--strict');
    assert.match(plain.err, /Rule\/a: query: field "nope\.field"/);
    assert.match(plain.err, /Rule\/b: query: expected/);
    const off = await validate({ ...rules, 'svcform.yaml': 'checks:\n  queryFields: false\n  kinds:\n    Rule: {querySyntax: false}\n' }, '--strict');
    assert.equal(off.code, 0, off.err);
    const own = await validate({ ...rules, 'a.yaml': rule('a', ['  type: query', "  query: 'nope.field:1'"], ['  checks: {queryFields: true}']), 'svcform.yaml': 'checks: {queryFields: false}\n' }, '--strict');
    assert.match(own.err, /Rule\/a: query: field "nope\.field"/);
    const wrong = await validate({ ...rules, 'svcform.yaml': 'checks:\n  queryFeilds: false\n  kinds: {Nope: {}}\n' });
    assert.equal(wrong.code, 1, wrong.err);
    assert.match(wrong.err, /svcform\.yaml:2:3: checks\.queryFeilds is not a known check \(known: queryFields, querySyntax, kinds\)/);
    assert.match(wrong.err, /svcform\.yaml:3:11: checks\.kinds\.Nope: not a known kind/);
  });

  it("an integration package's field definitions declare its fields: a directory in fields: reads every fields/*.yml under it, groups nested", async () => {
    const packageFields = [
      '- name: acme',
      '  type: group',
      '  description: Fields of the acme audit log.',
      '  fields:',
      '    - name: audit',
      '      type: group',
      '      fields:',
      '        - name: actor.login',
      '          type: keyword',
      '          example: alice',
      '        - name: action',
      '          type: keyword',
      '',
    ].join('\n');
    const files = {
      'svcform.yaml': 'fields: [packages]\n',
      'packages/acme/data_stream/audit/fields/fields.yml': packageFields,
      'packages/acme/data_stream/audit/manifest.yml': 'title: not a field list\n',
      'rules/r.yaml': rule('acme', ['  type: query', "  query: 'acme.audit.actor.login:alice and acme.audit.acton:delete'"]),
    };
    // Package files are not manifests: validate only the rules, with the configuration beside them.
    const rulesOnly = async (given: Record<string, string>, ...flags: string[]) => {
      const dir = repo(given);
      return cli(['validate', join(dir, 'rules'), '--config', join(dir, 'svcform.yaml'), ...flags]);
    };
    const r = await rulesOnly(files);
    assert.equal(r.code, 0, r.err);
    // the package's fields are known, so a near miss of one is a likely typo
    assert.match(r.err, /warning: Rule\/acme: query: field "acme\.audit\.acton" is not a known field; did you mean acme\.audit\.action\?/);
    assert.doesNotMatch(r.err, /actor\.login/);
    const strict = await rulesOnly({ ...files, 'rules/r.yaml': rule('acme', ['  type: query', "  query: 'acme.audit.actor.login:alice and acme.audit.action:delete'"]) }, '--strict');
    assert.equal(strict.code, 0, strict.err);
  });

  it('a field list file with a mistake is an error naming its file and line', async () => {
    const r = await validate({ 'r.yaml': rule('ok', ['  type: query', "  query: 'event.kind:alert'"]), 'svcform.yaml': 'fields: [f.json, missing.txt]\n', 'f.json': '[\n  "good",\n  {"name": "two words"}\n]\n' });
    assert.equal(r.code, 1);
    assert.match(r.err, /f\.json:3:3: \[1\] must be a field name/);
    assert.match(r.err, /svcform\.yaml:1:18: fields: cannot read "missing\.txt": no such file/);
  });

  it('only the module-not-found error naming the language module itself means "not in this build"', () => {
    const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
    assert.equal(isMissingLanguageModule(notFound("Cannot find module '/x/dist/src/query/eql/index.js' imported from /x/dist/src/query/languages.js"), 'eql'), true);
    // a present module whose own import is missing, another language's module, other errors: defects, not "missing"
    assert.equal(isMissingLanguageModule(notFound("Cannot find module '/x/dist/src/query/eql/eql.generated.js' imported from /x/dist/src/query/eql/index.js"), 'eql'), false);
    assert.equal(isMissingLanguageModule(notFound("Cannot find module '/x/dist/src/query/qlang/index.js'"), 'eql'), false);
    assert.equal(isMissingLanguageModule(new SyntaxError("Unexpected token in /x/dist/src/query/eql/index.js"), 'eql'), false);
  });

  it('languages whose module is not in the build are not checked (only a missing module counts as that)', async () => {
    await preloadLanguages();
    assert.ok(readyLanguage('kuery'));
    assert.ok(readyLanguage('lucene'));
    for (const name of ['eql', 'qlang'] as const) {
      const loaded = readyLanguage(name);
      // Either the other language modules are merged (then they are loaded) or they are marked missing.
      assert.ok(loaded === null || typeof loaded?.parse === 'function');
    }
  });
});
