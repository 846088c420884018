import { ApiError } from '../../client/errors.js';
import type { Requester } from '../../client/types.js';

/**
 * Apply leases kept as server-log connectors (`svcform-lease-<n>`): a connector create with a
 * chosen id is atomic (409 when the id exists), every deployment has the connectors API, and a
 * server-log connector does nothing by itself. The record is the connector's name, readable in the
 * UI. The Connector kind never lists these ids (see connector.ts), so no plan touches them.
 * engine/lease.ts holds the algorithm; this file only stores the records.
 */
export interface LeaseRecord {
  holder: string;
  /** Random per take: tells a lease of ours from another's when a create's answer was lost. */
  token: string;
  since: string;
  expires: string;
  released: boolean;
}

export interface StoredLease extends LeaseRecord {
  n: number;
}

export interface LeaseStore {
  list(space: string): Promise<StoredLease[]>;
  /** Creates lease number n; resolves false when n exists already (409). */
  create(space: string, n: number, record: LeaseRecord): Promise<boolean>;
  update(space: string, n: number, record: LeaseRecord): Promise<void>;
  remove(space: string, n: number): Promise<void>;
}

export const LEASE_ID = /^svcform-lease-(\d+)$/;
const PREFIX = 'svcform apply lease ';

const pathOf = (n: number) => `/api/actions/connector/svcform-lease-${n}`;

function nameOf(record: LeaseRecord): string {
  return PREFIX + JSON.stringify(record);
}

function parse(id: string, name: unknown): StoredLease | undefined {
  const m = LEASE_ID.exec(id);
  if (!m || typeof name !== 'string' || !name.startsWith(PREFIX)) return undefined;
  try {
    const r = JSON.parse(name.slice(PREFIX.length));
    return { n: Number(m[1]), holder: String(r.holder), token: String(r.token ?? ''), since: String(r.since), expires: String(r.expires), released: !!r.released };
  } catch {
    return undefined;
  }
}

export function connectorLeaseStore(api: Requester): LeaseStore {
  return {
    async list(space) {
      const res = await api.request<any[]>({ method: 'GET', path: '/api/actions/connectors', space });
      return (Array.isArray(res.body) ? res.body : []).flatMap((c) => parse(String(c?.id ?? ''), c?.name) ?? []);
    },
    async create(space, n, record) {
      try {
        await api.request({ method: 'POST', path: pathOf(n), space, body: { name: nameOf(record), connector_type_id: '.server-log', config: {}, secrets: {} } });
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) return false;
        throw err;
      }
    },
    async update(space, n, record) {
      await api.request({ method: 'PUT', path: pathOf(n), space, body: { name: nameOf(record), config: {}, secrets: {} } });
    },
    async remove(space, n) {
      await api.request({ method: 'DELETE', path: pathOf(n), space, accept: [404] });
    },
  };
}
