/**
 * The anonymization fields a space starts with: the AI assistant writes its defaults the first
 * time a space's fields are read (elastic_assistant: DEFAULT_ALLOW, DEFAULT_ALLOW_REPLACEMENT).
 * The emulator seeds a subset of that list: the fields below with the flags the server gives
 * them. `_id` is allowed and anonymized: attack discovery needs it allowed (service-api.md
 * "Rules for generate").
 */
export const DEFAULT_ANONYMIZATION_FIELDS: ReadonlyArray<{ field: string; allowed: boolean; anonymized: boolean }> = [
  { field: '_id', allowed: true, anonymized: true },
  { field: '@timestamp', allowed: true, anonymized: false },
  { field: 'host.name', allowed: true, anonymized: true },
  { field: 'host.ip', allowed: false, anonymized: true },
  { field: 'kibana.alert.rule.name', allowed: true, anonymized: false },
  { field: 'process.name', allowed: true, anonymized: false },
  { field: 'source.ip', allowed: true, anonymized: true },
  { field: 'user.name', allowed: true, anonymized: true },
];
