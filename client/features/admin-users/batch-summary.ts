/** Per-id results of a batch call, counted for the "2 done, 1 failed" message. */
export interface BatchOutcome {
  done: number;
  failed: number;
  /** The failed entries with their error code, in the order the service answered. */
  failures: { key: string; error: string }[];
}

export function summarizeBatch(
  results: readonly { ok: boolean; error?: string; id?: number; email?: string }[],
): BatchOutcome {
  const failures = results
    .filter((r) => !r.ok)
    .map((r) => ({ key: String(r.email ?? r.id ?? ''), error: r.error ?? 'generic' }));
  return { done: results.length - failures.length, failed: failures.length, failures };
}

/** Splits the invite form's text into addresses: commas, semicolons or new lines separate. */
export function splitEmails(text: string): string[] {
  return text
    .split(/[,;\n\r]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
