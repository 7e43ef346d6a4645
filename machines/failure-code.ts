/** The code of a failure: an error's string `code` (the service's error) or 'unavailable'. */
export function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'unavailable';
}
