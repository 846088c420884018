import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listValueProblem, LIST_TYPES, storedListValue } from '../../src/common/list-values.js';
import { readBackValue } from '@svcform/emulator/facts/list-values.js';

/**
 * What a value list of each type refuses for certain. Sources: wire-facts 3.2 (values are
 * validated in the search backend; "a bad IP gives 400"), the backend's mapping reference for
 * `coerce` (on by default: "Strings will be coerced to numbers", "Floating points will be truncated
 * for integer values", elastic.co .../mapping-params coerce), and the numeric types' ranges
 * (byte -128..127, short -32768..32767, integer -2^31..2^31-1, long -2^63..2^63-1; float and
 * half_float are finite floats).
 */
describe('listValueProblem', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['ip', ['192.168.0.1', '0.0.0.0', '255.255.255.255', '2001:db8::1', '::ffff:192.0.2.1', ' 192.0.2.1 '], ['192.0.2.300', '010.0.0.1', '1..2.3', '1.2.3.4.5', '1.2.3.0400', 'host-a', '10.0.0.0/8', '1.2.3']],
    ['ip_range', ['10.0.0.0/8', '2001:db8::/32', '10.0.0.1-10.0.0.9', '10.0.0.1', '2001:db8::1-2001:db8::9'], ['10.0.0.0/33', 'ten/8', '2001:db8::/129', '10.0.0.1-', '1-2-3', 'host']],
    ['integer', ['42', '-2147483648', '4.2', '1e3', '7d'], ['2147483648', '4.2.1', 'x', '1,000']],
    ['long', ['9223372036854775807', '-9223372036854775808', '1.5'], ['9223372036854775808', '-9223372036854775809', '1e19', 'x']],
    ['short', ['32767', '-32768'], ['32768']],
    ['byte', ['-128', '127'], ['128', '-129']],
    ['double', ['3.14', '-1e10', '1e308'], ['pi', '1e309', 'NaN']],
    ['float', ['0.5', '3.4e38'], ['half', '3.5e38', 'Infinity']],
    ['half_float', ['0.5'], ['x']],
    ['boolean', ['true', 'false'], ['yes', 'TRUE', '1']],
    ['date', ['2026-01-01T00:00:00Z', '1700000000000', '2026'], ['yesterday', 'now']],
    ['keyword', ['anything at all', '192.0.2.300'], []],
    ['text', ['free text'], []],
  ];
  for (const [type, good, bad] of cases) {
    it(`${type}: accepts ${good.join(', ')}; refuses ${bad.join(', ') || 'nothing'}`, () => {
      for (const value of good) assert.equal(listValueProblem(type, value), undefined, `${type} ${value}`);
      for (const value of bad) assert.equal(typeof listValueProblem(type, value), 'string', `${type} ${value}`);
    });
  }

  it('judges nothing it cannot be sure of: ranges, shapes, binary and keyword take any value', () => {
    for (const type of ['integer_range', 'long_range', 'float_range', 'double_range', 'date_range', 'geo_point', 'geo_shape', 'shape', 'binary', 'keyword', 'text']) {
      assert.ok((LIST_TYPES as readonly string[]).includes(type));
      assert.equal(listValueProblem(type, 'x-y'), undefined, type);
    }
  });

  it('reads dotted IPv4 exactly as node:net does (the scan by hand is only faster)', async () => {
    const { isIP } = await import('node:net');
    const samples = ['1.2.3.4', '01.2.3.4', '1.02.3.4', '0.0.0.0', '256.0.0.0', '1.2.3.', '.1.2.3', '1.2.3.4.', '9999.1.1.1', '1.2.3.a', '١.٢.٣.٤'];
    for (let i = 0; i < 300; i++) samples.push(`${i}.${(i * 7) % 300}.0.${i % 10 === 0 ? '00' : i}`);
    for (const value of samples) assert.equal(listValueProblem('ip', value) === undefined, isIP(value) !== 0, value);
  });

  it('says why, in words that complete "VALUE is ..."', () => {
    assert.equal(listValueProblem('ip', '192.0.2.300'), 'not an IP address');
    assert.equal(listValueProblem('byte', '128'), 'out of the range of a byte (-128 to 127)');
    assert.equal(listValueProblem('ip_range', '10.0.0.1-host'), 'not a range of addresses: host is not an IP address');
  });
});

/**
 * What an item reads back as (lists plugin services/utils/transform_list_item_to_elastic_query.ts:
 * the default serializers of the OpenAPI document's `serializer` on the trimmed value, parts
 * trimmed; find_source_value.ts: the default deserializers). The emulator keeps its own copy
 * (facts/list-values.ts readBackValue): both must agree.
 */
describe('storedListValue', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['keyword', 'plain', 'plain'],
    ['keyword', '  padded\t', 'padded'],
    ['keyword', 'a\rb', 'a'],
    ['text', ' two words ', 'two words'],
    ['ip', ' 192.0.2.1', '192.0.2.1'],
    ['ip_range', '10.1.2.3', '10.1.2.3-10.1.2.3'],
    ['ip_range', ' 10.0.0.0/8 ', '10.0.0.0/8'],
    ['ip_range', '10.0.0.1 - 10.0.0.9', '10.0.0.1-10.0.0.9'],
    ['ip_range', '2001:db8::1', '2001:db8::1-2001:db8::1'],
    ['long_range', '5', '5-5'],
    ['long_range', '-5', '-5--5'],
    ['long_range', '1-2-3', '1-2-3'],
    ['double_range', '1.5-2.5', '1.5-2.5'],
    ['date_range', '2026-01-01', '2026-01-01,2026-01-01'],
    ['date_range', '2026-01-01, 2026-02-01', '2026-01-01,2026-02-01'],
    ['geo_point', '1.5, 2.5', '1.5,2.5'],
    ['geo_point', 'POINT (2.5 1.5)', 'POINT (2.5 1.5)'],
    ['geo_shape', '1,2', 'POINT (2 1)'],
    ['shape', 'POINT (2 1)', 'POINT (2 1)'],
    ['long_range', '   ', undefined],
  ];
  for (const [type, value, stored] of cases) {
    it(`${type} ${JSON.stringify(value)} reads back as ${JSON.stringify(stored)}, in svcform and the emulator; again, unchanged`, () => {
      assert.equal(storedListValue(type, value), stored);
      assert.equal(readBackValue(type, value), stored);
      if (stored !== undefined) assert.equal(storedListValue(type, stored), stored);
    });
  }
});
