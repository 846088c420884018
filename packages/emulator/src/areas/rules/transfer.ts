import type { EmulatorContext } from '../../context.js';
import { EmuError } from '../../errors.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { findConnector, importConnector, storedConnector } from '../connectors/index.js';
import { buildNewRule, exportable, schemaOptions, securityError } from './build.js';
import { replaceRule } from './rule-updates.js';
import { importSchema, ruleRequestProblems } from './schema.js';
import { array, formatIssues, object, parseBody, parseRequest, string } from '../../zod.js';
import { writer } from './crud.js';
import { importExceptions, isExceptionLine } from './import-exceptions.js';
import { exportExceptions } from './export-exceptions.js';
import { listsVisibleIn } from '../exceptions/state.js';
import { allRules, ruleByRuleId, rulesState, saveRule } from './state.js';

/** _export and _import of rules as NDJSON (wire-facts 0.2 and 2.1). */

const MAX_RULES = 10_000;
/** The import route's body limit (K-DE server/config.ts maxRuleImportPayloadBytes, default 10485760). */
export const MAX_IMPORT_BYTES = 10_485_760;

function booleanParam(req: EmuRequest, name: string): boolean {
  const raw = req.query.get(name);
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new EmuError(400, `[request query]: ${name}: Invalid enum value. Expected 'true' | 'false', received '${raw}'`, 'platform');
}

/**
 * The export file: the rules, the connectors their actions use (without secrets; built-in
 * connectors are left out and counted as excluded), then the summary line unless excluded.
 */
export function exportResponse(
  ctx: EmulatorContext,
  space: string,
  rules: Record<string, any>[],
  missingRuleIds: string[],
  excludeDetails: boolean,
  fileName: string,
): EmuResponse {
  const connectorIds = [...new Set(rules.flatMap((r) => (r.actions ?? []).map((a: { id: string }) => a.id)))];
  const connectorLines: string[] = [];
  const excluded: Array<{ id: string; type: string }> = [];
  for (const id of connectorIds) {
    const stored = storedConnector(ctx, space, id);
    if (!stored) {
      if (findConnector(ctx, space, id)) excluded.push({ id, type: 'action' });
      continue;
    }
    connectorLines.push(
      JSON.stringify({
        attributes: { actionTypeId: stored.connector_type_id, config: stored.config, isMissingSecrets: Object.keys(stored.secrets).length === 0, name: stored.name, secrets: {} },
        id: stored.id,
        managed: false,
        references: [],
        type: 'action',
      }),
    );
  }
  const exceptions = exportExceptions(ctx, space, rules);
  const lines = [...rules.map((r) => JSON.stringify(r)), ...exceptions.lines, ...connectorLines];
  if (!excludeDetails) {
    lines.push(
      JSON.stringify({
        exported_count: rules.length + exceptions.lines.length + connectorLines.length,
        exported_rules_count: rules.length,
        missing_rules: missingRuleIds.map((rule_id) => ({ rule_id })),
        missing_rules_count: missingRuleIds.length,
        ...exceptions.details,
        exported_action_connector_count: connectorLines.length,
        missing_action_connection_count: 0,
        missing_action_connections: [],
        excluded_action_connection_count: excluded.length,
        excluded_action_connections: excluded,
      }),
    );
  }
  return {
    text: lines.map((l) => `${l}\n`).join(''),
    contentType: 'application/ndjson',
    headers: { 'content-disposition': `attachment; filename="${fileName}"` },
  };
}

/** ExportRulesRequestBody (K-DE/rule_management/export_rules/export_rules_route.gen.ts): `{objects: [{rule_id}]}`, nullable. */
const ExportRulesBody = object({ objects: array(object({ rule_id: string() })) });

export function exportRules(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const excludeDetails = booleanParam(req, 'exclude_export_details');
  const fileName = req.query.get('file_name') ?? 'export.ndjson';
  const state = rulesState(ctx, req.space);
  // An empty request body reaches the route as null, which the nullable schema takes: export all.
  const body = req.body === undefined || req.body === null ? null : (parseRequest(ExportRulesBody, req.body) as { objects: Array<{ rule_id: string }> });
  if (body === null) {
    const rules = allRules(state);
    if (rules.length > MAX_RULES) throw securityError(400, `Can't export more than ${MAX_RULES} rules`);
    return exportResponse(ctx, req.space, rules.map(exportable), [], excludeDetails, fileName);
  }
  const objects = body.objects;
  if (objects.length > MAX_RULES) throw securityError(400, `Can't export more than ${MAX_RULES} rules`);
  const found: Record<string, any>[] = [];
  const missing: string[] = [];
  for (const { rule_id } of objects as Array<{ rule_id: string }>) {
    const rule = ruleByRuleId(state, rule_id);
    if (rule) found.push(exportable(rule));
    else missing.push(rule_id);
  }
  return exportResponse(ctx, req.space, found, missing, excludeDetails, fileName);
}

interface ImportError {
  rule_id?: string;
  id?: string;
  error: { status_code: number; message: string };
}

/**
 * An imported rule's exception list references are checked against the lists the space has
 * (import_rules/check_rule_exception_references.ts): a reference to a list of that list_id,
 * namespace_type and type takes that list's id; any other is removed, with a 400 in `errors`,
 * and the rule is imported all the same.
 */
function checkExceptionReferences(ruleId: string, refs: Array<Record<string, any>>, lists: Map<string, Record<string, unknown>>, errors: ImportError[]): Array<Record<string, any>> {
  const kept: Array<Record<string, any>> = [];
  for (const ref of refs) {
    const list = lists.get(ref.list_id);
    if (list && list.namespace_type === ref.namespace_type && list.type === ref.type) kept.push({ ...ref, id: list.id });
    else {
      errors.push({
        rule_id: ruleId,
        error: { status_code: 400, message: `Rule with rule_id: "${ruleId}" references a non existent exception list of list_id: "${ref.list_id}". Reference has been removed.` },
      });
    }
  }
  return kept;
}

export function importRules(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const overwrite = booleanParam(req, 'overwrite');
  const overwriteExceptions = booleanParam(req, 'overwrite_exceptions');
  const overwriteConnectors = booleanParam(req, 'overwrite_action_connectors');
  booleanParam(req, 'as_new_list');
  // The platform refuses a larger body before the route sees it (the route's options.body.maxBytes).
  if (req.rawBody.length > MAX_IMPORT_BYTES) throw new EmuError(413, `Payload content length greater than maximum allowed: ${MAX_IMPORT_BYTES}`, 'platform');
  if (!req.file) throw new EmuError(400, '[request body]: file: Required', 'platform');
  const ext = /\.[^.]*$/.exec(req.file.name)?.[0] ?? '';
  if (ext !== '.ndjson') throw securityError(400, `Invalid file extension ${ext}`);

  const ruleLines: Array<Record<string, any> | Error> = [];
  const connectorLines: Record<string, any>[] = [];
  const exceptionLines: Record<string, any>[] = [];
  for (const line of req.file.content.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    let parsed: any;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      ruleLines.push(err as Error);
      continue;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      if ('exported_count' in parsed) continue;
      if (parsed.type === 'action') {
        connectorLines.push(parsed);
        continue;
      }
      // Exception lists and items travel in the same file, ahead of the rules that use them.
      if (isExceptionLine(parsed)) {
        exceptionLines.push(parsed);
        continue;
      }
    }
    ruleLines.push(parsed);
  }
  if (ruleLines.length > MAX_RULES) throw securityError(400, `Can't import more than ${MAX_RULES} rules`);

  const exceptions = importExceptions(ctx, req.space, req.user, exceptionLines, overwriteExceptions);

  const connectorErrors: ImportError[] = [];
  let connectorsImported = 0;
  for (const c of connectorLines) {
    const id = String(c.id ?? '');
    if (storedConnector(ctx, req.space, id) && !overwriteConnectors) {
      connectorErrors.push({ id, error: { status_code: 409, message: `Connector "${id}" already exists; set overwrite_action_connectors to replace it` } });
      continue;
    }
    try {
      importConnector(ctx, req.space, { id, name: c.attributes?.name, connector_type_id: c.attributes?.actionTypeId, config: c.attributes?.config });
      connectorsImported += 1;
    } catch (err) {
      if (!(err instanceof EmuError)) throw err;
      connectorErrors.push({ id, error: { status_code: err.status, message: err.message } });
    }
  }

  const state = rulesState(ctx, req.space);
  const w = writer(req, ctx);
  const errors: ImportError[] = [];
  const seen = new Set<string>();
  const ruleSchema = importSchema(schemaOptions(ctx));
  // The lists this file imported count as well as those the space already had.
  const exceptionLists = listsVisibleIn(ctx, req.space);
  let imported = 0;
  for (const entry of ruleLines) {
    if (entry instanceof Error) {
      errors.push({ rule_id: '(unknown id)', error: { status_code: 400, message: entry.message } });
      continue;
    }
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      errors.push({ rule_id: '(unknown id)', error: { status_code: 400, message: 'Expected object' } });
      continue;
    }
    const ruleId = entry.rule_id;
    if (typeof ruleId !== 'string' || ruleId === '') {
      errors.push({ rule_id: '(unknown id)', error: { status_code: 400, message: 'rule_id: Required' } });
      continue;
    }
    if (seen.has(ruleId)) {
      errors.push({ rule_id: ruleId, error: { status_code: 400, message: `More than one rule with rule-id: "${ruleId}" found` } });
      continue;
    }
    seen.add(ruleId);
    // Each line is read as RuleToImport (import_rules/rule_to_import.ts): unknown keys stripped,
    // then validateRuleToImport (rule_to_import_validation.ts). A line that fails either becomes an
    // Error before the rule_id is read, so the answer cannot name the rule: "(unknown id)"
    // (import_rules_utils.ts: createBulkErrorObject without ruleId).
    const parsed = parseBody(ruleSchema, entry);
    const problems = parsed.issues.length ? [] : ruleRequestProblems(parsed.value as Record<string, any>, 'import');
    if (parsed.issues.length || problems.length) {
      errors.push({ rule_id: '(unknown id)', error: { status_code: 400, message: parsed.issues.length ? formatIssues(parsed.issues) : problems.join() } });
      continue;
    }
    const line = parsed.value as Record<string, any>;
    if (Array.isArray(line.exceptions_list) && line.exceptions_list.length) {
      const kept = checkExceptionReferences(ruleId, line.exceptions_list, exceptionLists, errors);
      line.exceptions_list = kept;
    }
    const missingConnectors = [...new Set<string>((line.actions ?? []).map((a: { id: string }) => a.id))].filter((id) => !findConnector(ctx, req.space, id));
    if (missingConnectors.length) {
      const many = missingConnectors.length > 1;
      errors.push({
        rule_id: ruleId,
        error: { status_code: 404, message: `${missingConnectors.length} connector${many ? 's are' : ' is'} missing. Connector id${many ? 's' : ''} missing ${many ? 'are' : 'is'}: ${missingConnectors.join(', ')}` },
      });
      continue;
    }
    const existing = ruleByRuleId(state, ruleId);
    if (existing && !overwrite) {
      errors.push({ rule_id: ruleId, error: { status_code: 409, message: `rule_id: "${ruleId}" already exists` } });
      continue;
    }
    // Imported actions get fresh uuids, as on any write that sends none.
    const body = { ...line, actions: (line.actions ?? []).map(({ uuid: _uuid, ...a }: any) => a) };
    try {
      saveRule(state, existing ? replaceRule(w, existing, body) : buildNewRule(w, body));
      imported += 1;
    } catch (err) {
      if (!(err instanceof EmuError)) throw err;
      errors.push({ rule_id: ruleId, error: { status_code: err.status, message: err.message } });
    }
  }

  return {
    body: {
      success: errors.length === 0,
      success_count: imported,
      rules_count: ruleLines.length,
      errors,
      exceptions_success: exceptions.success,
      exceptions_success_count: exceptions.success_count,
      exceptions_errors: exceptions.errors,
      action_connectors_success: connectorErrors.length === 0,
      action_connectors_success_count: connectorsImported,
      action_connectors_errors: connectorErrors,
      action_connectors_warnings: [],
    },
  };
}
