/** The code of a failure: an error's string `code` (the service's error) or 'unavailable'. */
export function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'unavailable';
}

/** Why a service refused: its HTTP status (0 without an answer) and `error` code. */
export interface Refusal {
  status: number;
  code: string;
}

export function refusalOf(error: unknown): Refusal {
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return { status: typeof status === 'number' ? status : 0, code: failureCode(error) };
}

/** A refusal that stays (403, 404, 409): asking again does not help. */
export const isFinalRefusal = (error: unknown): boolean =>
  [403, 404, 409].includes(refusalOf(error).status);
