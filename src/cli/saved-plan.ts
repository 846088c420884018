import type { planToJson } from '../report/plan-json.js';

export const SAVED_PLAN_KIND = 'svcform-saved-plan';

/**
 * A saved plan keeps what the plan was computed from (paths and options) and the fingerprints of
 * the live and desired state, never the secret values themselves: `apply --plan` recomputes the
 * plan from the same inputs and refuses when either fingerprint changed.
 */
export interface SavedPlan {
  kind: typeof SAVED_PLAN_KIND;
  inputs: {
    paths: string[];
    cwd: string;
    url?: string;
    space?: string;
    config?: string;
    select: string[];
    rotate_secrets: boolean;
  };
  plan: ReturnType<typeof planToJson>;
}
