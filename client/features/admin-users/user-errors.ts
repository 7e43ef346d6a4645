// The user service's refusal codes this area explains; the rest get the generic text.
const KNOWN_ERRORS = [
  'escalation',
  'already_member',
  'already_invited',
  'duplicate',
  'not_found',
  'cannot_disable_self',
  'cannot_delete_self',
  'last_administrator',
] as const;

/** The translation key of a service error code; unknown codes get the generic text. */
export function errorKey(code: string): `errors.${(typeof KNOWN_ERRORS)[number] | 'generic'}` {
  const known = KNOWN_ERRORS.find((k) => k === code);
  return `errors.${known ?? 'generic'}`;
}
