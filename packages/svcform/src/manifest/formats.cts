// CommonJS on purpose: the validation code the build compiles from schemas/ (ajv standalone,
// scripts/build-validators.mjs) is CommonJS and requires its formats from this module, so the
// formats checked at run time and those of the prebuilt code are one set.
import { fullFormats } from 'ajv-formats/dist/formats';

/**
 * Whether a maintenance window's schedule may name this time zone. The server checks it against
 * the IANA database of moment-timezone (`validateTimezone` in the maintenance window schedule
 * schema: `moment.tz.zone(tz)`), which knows every zone and link name, case-insensitively (UTC,
 * Etc/GMT+5, US/Eastern...). Node's ICU knows the same names; its Intl also takes offsets such as
 * +05:00, which moment-timezone does not, so a name must look like one (letters first, no `:`).
 */
const NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const known = new Map<string, boolean>();

export function isTimeZone(tz: string): boolean {
  if (tz.length > 64 || !NAME.test(tz)) return false;
  let ok = known.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    if (known.size < 1000) known.set(tz, ok);
  }
  return ok;
}

/**
 * Every format the schemas use: ajv-formats' full set, and what the maintenance window API accepts
 * as a schedule's timezone. Empty is left to minLength, which says so in plainer words.
 */
export const formats = {
  ...fullFormats,
  'time-zone': { type: 'string' as const, validate: (tz: string) => tz === '' || isTimeZone(tz) },
};
