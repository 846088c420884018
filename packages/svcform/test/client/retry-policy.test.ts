import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  backoffDelay,
  classifyTransportError,
  isRetryableStatus,
  parseRetryAfter,
} from '../../src/client/retry.js';
import { AREAS, AreaPolicies } from '../../src/client/areas.js';

const policies = new AreaPolicies();

function systemError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

describe('retry policy', () => {
  it('retries 429 always, 500/502/503/504 only when safe to repeat, and 409 only in the fleet area (wire-facts 0.5)', () => {
    for (const status of [429, 500, 502, 503, 504]) {
      assert.equal(isRetryableStatus(status, policies.of('lists')), true, String(status));
      assert.equal(isRetryableStatus(status, policies.of('fleet')), true, String(status));
    }
    assert.equal(isRetryableStatus(429, policies.of('lists'), false), true, 'a 429 was refused before anything happened');
    for (const status of [500, 502, 503, 504]) assert.equal(isRetryableStatus(status, policies.of('lists'), false), false, `a create may have landed before ${status}`);
    assert.equal(isRetryableStatus(409, policies.of('fleet')), true);
    assert.equal(isRetryableStatus(409, policies.of('lists')), false);
    for (const status of [400, 401, 403, 404]) assert.equal(isRetryableStatus(status, policies.of('fleet')), false, String(status));
  });

  it('takes policies from the one area table, with svcform.yaml overrides laid over it', () => {
    assert.equal(policies.of(AREAS.fleet.name).retryConflict, true);
    assert.equal(policies.of(AREAS.detectionEngine.name).retryConflict, false);
    assert.deepEqual(policies.concurrencyLimits(), { prebuilt_rules: 1 });
    const tuned = new AreaPolicies({ fleet: { concurrency: 2, retryConflict: false }, lists: { concurrency: 3 } });
    assert.deepEqual(tuned.of('fleet'), { retryConflict: false, concurrency: 2 });
    assert.deepEqual(tuned.concurrencyLimits(), { prebuilt_rules: 1, fleet: 2, lists: 3 });
    assert.equal(isRetryableStatus(409, tuned.of('fleet')), false);
    assert.deepEqual(policies.of('not-an-area'), { retryConflict: false });
  });

  it('reads Retry-After as delta-seconds or an HTTP date, capped', () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(['2'], now), 2000);
    assert.equal(parseRetryAfter('0.5', now), 500);
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 10:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 09:59:00 GMT', now), 0);
    assert.equal(parseRetryAfter('3600', now), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('20', now, 5000), 5000);
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
  });

  it('backs off exponentially with up to 50 % jitter, never beyond the cap', () => {
    assert.equal(backoffDelay(1, 250, () => 0), 250);
    assert.equal(backoffDelay(2, 250, () => 0), 500);
    assert.equal(backoffDelay(3, 250, () => 0), 1000);
    assert.equal(backoffDelay(3, 250, () => 0.999999), 1500);
    assert.equal(backoffDelay(12, 250, () => 0.5), MAX_BACKOFF_MS);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelay(2, 100)));
    assert.ok([...spread].every((d) => d >= 200 && d <= 300));
    assert.ok(spread.size > 1, 'jitter varies the delay');
  });

  it('classifies failures by whether the request may have reached the server', () => {
    assert.equal(classifyTransportError(systemError('ECONNREFUSED')).kind, 'unsent');
    assert.equal(classifyTransportError(systemError('UND_ERR_CONNECT_TIMEOUT')).kind, 'unsent');
    assert.equal(classifyTransportError(systemError('ECONNRESET')).kind, 'ambiguous');
    assert.equal(classifyTransportError(systemError('UND_ERR_SOCKET', 'other side closed')).kind, 'ambiguous');
    assert.equal(classifyTransportError(new Error('wrapped', { cause: systemError('EPIPE') })).kind, 'ambiguous');
    assert.equal(classifyTransportError(systemError('ENOTFOUND')).kind, 'fatal');
    assert.equal(classifyTransportError(new TypeError('a bug')).kind, 'fatal');
  });

  it('never retries certificate failures and says which option helps', () => {
    const untrusted = classifyTransportError(systemError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'));
    assert.equal(untrusted.kind, 'fatal');
    assert.match(untrusted.hint ?? '', /caCert/);
    assert.equal(untrusted.reason, 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate');
    const rejected = classifyTransportError(systemError('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'));
    assert.equal(rejected.kind, 'fatal');
    assert.match(rejected.hint ?? '', /clientCert/);
  });
});
