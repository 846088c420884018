import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PlannedChange } from '../../src/engine/plan.js';
import { REVIEW_ARRAY_SHOWN, reviewLines, reviewOf, textChangeLines, wordDiffLine } from '../../src/report/review.js';
import { resource } from '../helpers/resource.js';

const create = (kind: string, name: string, spec: Record<string, any>, secretPointers: string[] = []): PlannedChange => ({
  id: `${kind}/default/${name}`,
  kind,
  space: 'default',
  name,
  action: 'create',
  fields: [],
  patch: [],
  dependsOn: [],
  wave: 0,
  resource: resource(kind, name, spec, { secretPointers }),
  ignore: [],
});

describe('the content of a create, for review', () => {
  it('a rule: the declared fields only, in their order, server defaults filled in, an action by connector, type and group', () => {
    const review = reviewOf(
      create('Rule', 'r', {
        type: 'query', name: 'R', description: 'long text nobody reviews here', severity: 'low', risk_score: 5, query: 'a:b',
        actions: [{ id: 'soc-chat', group: 'default', action_type_id: '.chat', params: { message: 'hi' } }],
      }),
    );
    assert.deepEqual(review, {
      name: 'R', type: 'query', query: 'a:b', language: 'kuery', severity: 'low', risk_score: 5, enabled: false,
      actions: [{ id: 'soc-chat', action_type_id: '.chat', group: 'default' }],
      exceptions_list: [],
    });
  });

  it('a kind without a declared list: every field; a value from a secret is (sensitive) by pointer, even one too short to redact by text', () => {
    const review = reviewOf(create('HostQuerySavedQuery', 'q', { id: 'q', query: 'select 1', description: 'k9z' }, ['/description']));
    assert.equal(review?.description, '(sensitive)');
    assert.equal(review?.query, 'select 1');
  });

  it(`long arrays show their first ${REVIEW_ARRAY_SHOWN} members and a count`, () => {
    const items = Array.from({ length: 1000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const review = reviewOf(create('ValueList', 'ips', { name: 'IPs', description: 'd', type: 'ip', items }))!;
    const shown = review.items as string[];
    assert.equal(shown.length, REVIEW_ARRAY_SHOWN + 1);
    assert.equal(shown[REVIEW_ARRAY_SHOWN], `… ${1000 - REVIEW_ARRAY_SHOWN} more`);
    assert.deepEqual(reviewLines({ type: 'ip', tags: [], meta: {}, items: ['a'] }), ['spec.type: "ip"', 'spec.tags: []', 'spec.meta: {}', 'spec.items:', '  - a']);
  });

  it('only creates have content to review', () => {
    assert.equal(reviewOf({ ...create('Rule', 'r', {}), action: 'delete', live: { kind: 'Rule', space: 'default', name: 'r', body: {} } } as PlannedChange), undefined);
  });
});

describe('a long string changes word by word', () => {
  it('one line: the changed words marked, unchanged text far from a change elided', () => {
    const before = 'event.category:process and process.name:(a.exe or b.exe) and not user.name:SYSTEM and host.os.type:windows';
    const after = before.replace('SYSTEM', 'svc_backup');
    assert.equal(wordDiffLine(before, after), '… or b.exe) and not user.name:[-SYSTEM-]{+svc_backup+} and host.os.type:windows');
  });

  it('several lines: unchanged lines as context, a line replaced by one line by its words, others whole', () => {
    const before = 'FROM logs\n| WHERE a == 1\n| LIMIT 10\n';
    const after = 'FROM logs\n| WHERE a == 2\n| LIMIT 10\n| KEEP a\n| SORT a\n';
    assert.deepEqual(textChangeLines(before, after), [
      { mark: ' ', text: 'FROM logs' },
      { mark: '~', text: '| WHERE a == [-1-]{+2+}' },
      { mark: ' ', text: '| LIMIT 10' },
      { mark: '+', text: '| KEEP a' },
      { mark: '+', text: '| SORT a' },
    ]);
  });
});
