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

/**
 * A refusal said on its own (a dialog's or a page's message), as a sentence: the reasons are
 * written to follow a name in batch results ("anna@x.de: already invited"), so alone they get a
 * frame that begins and ends one ("Not saved: …."). Unknown codes get the generic text.
 */
export function refusalText(
  t: (key: 'errors.refused' | ReturnType<typeof errorKey>, values?: { reason: string }) => string,
  code: string,
): string {
  const key = errorKey(code);
  const reason = t(key);
  // A reason written as a whole sentence (escalation, the generic text) needs no frame.
  return key === 'errors.generic' || /[.!?]$/.test(reason)
    ? reason
    : t('errors.refused', { reason });
}
