/** `npm run campaign -- --runs 100 [--seed 1] [--copies 20] [--rate 0.1]` */
import { runCampaign, summarize } from './campaign.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const started = Date.now();
const results = await runCampaign({ runs: flag('runs', 10), seed: flag('seed', 1), copies: flag('copies', 20), rate: flag('rate', 0.1), log: (l) => console.log(l) });
console.log(summarize(results));
console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
const clean = results.every((r) => r.converged && r.duplicated === 0 && r.lost === 0 && r.misreported === 0);
process.exit(clean ? 0 : 1);
