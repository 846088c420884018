import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * Runs the JavaScript of an actions/github-script step the way the action does (an async function
 * of github, context, require, process, ...) against an in-memory repository, so a test can watch
 * what it creates and updates.
 */
export interface FakeGitHub {
  comments: Array<{ id: number; body: string; user?: { type: string; login?: string }; issue_number?: number }>;
  issues: Array<{ number: number; body: string; state: string; labels: string[]; title?: string; pull_request?: unknown; user?: { type: string; login?: string } }>;
  github: any;
}

/** The author of what a workflow writes with the default GITHUB_TOKEN. */
export const BOT = { type: 'Bot', login: 'github-actions[bot]' };

export function fakeGitHub(): FakeGitHub {
  const state: FakeGitHub = { comments: [], issues: [], github: undefined };
  let next = 100;
  const issues = {
    listComments: async () => ({ data: state.comments.map((c) => ({ ...c })) }),
    createComment: async ({ issue_number, body }: any) => {
      if (issue_number === undefined) throw new Error('issue_number is required');
      state.comments.push({ id: next++, body, user: BOT, issue_number });
    },
    updateComment: async ({ comment_id, body }: any) => {
      const c = state.comments.find((x) => x.id === comment_id);
      if (!c) throw new Error(`no comment ${comment_id}`);
      c.body = body;
    },
    listForRepo: async ({ state: wanted, labels }: any) => ({
      data: state.issues.filter((i) => (wanted === 'all' || i.state === wanted) && (!labels || i.labels.includes(labels))).map((i) => ({ ...i })),
    }),
    create: async ({ title, body, labels }: any) => {
      state.issues.push({ number: next++, title, body, labels: labels ?? [], state: 'open', user: BOT });
    },
    update: async ({ issue_number, ...fields }: any) => {
      const i = state.issues.find((x) => x.number === issue_number);
      if (!i) throw new Error(`no issue ${issue_number}`);
      for (const k of ['body', 'state', 'title'] as const) if (fields[k] !== undefined) (i as any)[k] = fields[k];
    },
  };
  state.github = {
    rest: { issues },
    paginate: async (fn: (params: unknown) => Promise<{ data: unknown[] }>, params: unknown) => (await fn(params)).data,
  };
  return state;
}

export async function runScript(script: string, options: { gh: FakeGitHub; dir: string; env?: Record<string, string>; payload?: unknown }): Promise<unknown> {
  const at = (p: string) => (isAbsolute(p) ? p : join(options.dir, p));
  const fs = { existsSync: (p: string) => existsSync(at(p)), readFileSync: (p: string, enc: BufferEncoding) => readFileSync(at(p), enc) };
  const context = { repo: { owner: 'acme', repo: 'svc-config' }, runId: 42, serverUrl: 'https://github.com', payload: options.payload ?? {} };
  const require = (name: string) => {
    if (name === 'fs') return fs;
    throw new Error(`the test's require has no ${name}`);
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const fn = new AsyncFunction('github', 'context', 'require', 'process', script);
  return fn(options.gh.github, context, require, { env: { ...(options.env ?? {}) } });
}
