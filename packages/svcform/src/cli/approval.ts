import type { Plan } from '../engine/plan.js';
import { describeObject } from '../manifest/types.js';
import { renderPlanText } from '../report/text.js';
import type { Colors } from '../report/color.js';
import type { Io } from './context.js';

export const APPROVAL_QUESTION = "Do you want to perform these actions? Only 'yes' will be accepted: ";

/**
 * Terraform's approval, for the changes that lose data: a plan that deletes anything (a replace
 * is a delete and a create of one object, so it counts) runs only once approved. On a terminal
 * apply asks, and anything but `yes` applies nothing. Without a terminal it never asks: then
 * `--auto-approve` or CI=true is the approval, else nothing is applied. Plans that only create
 * and update run without asking, as before.
 */
export async function approveDeletes(plan: Plan, opts: { autoApprove?: boolean; json?: boolean; quiet?: boolean }, io: Io, col: Colors): Promise<boolean> {
  const deletes = plan.changes.filter((c) => c.action === 'delete');
  if (deletes.length === 0 || opts.autoApprove) return true;
  const what = `${deletes.length} object${deletes.length === 1 ? '' : 's'}`;
  if (!io.stdinTty || !io.prompt) {
    if (io.env.CI === 'true') return true;
    io.err(`The plan deletes ${what} (${deletes.map((c) => describeObject(c)).join(', ')}) and there is no terminal to ask for approval on: pass --auto-approve (or set CI=true) to apply it. Nothing was applied.`);
    return false;
  }
  // The plan was printed on stdout unless --json or --quiet kept it off; the person approving sees it either way.
  if (opts.json || opts.quiet) io.err(renderPlanText(plan, col));
  io.err(`\nsvcform will perform the actions described above, deleting ${what}.`);
  const answer = await io.prompt(APPROVAL_QUESTION);
  if (answer.trim() === 'yes') return true;
  io.err('Apply cancelled: nothing was applied.');
  return false;
}
