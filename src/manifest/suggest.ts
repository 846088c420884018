/** "Did you mean" lives in src/common/suggest.ts, where the query languages reach it too. */
export { closest, SUGGEST_MAX_CHARS } from '../common/suggest.js';
