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

/** The params of the refusal guard and of `keepRefusal`: the error the invoked call rejected with. */
const rejection = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * The `onError` of a call a service may refuse (a status move, a workflow instance action): a
 * refusal that stays goes to the sibling `refused`, kept in context and told by `notifyRefused`;
 * anything else goes to `failed`, kept, from where the machine may try again. Named guard and
 * actions, so each machine's `setup()` types them: it provides the guard `isFinalRefusal`
 * (params `{ error }`), the action `keepRefusal` (params `{ error }`, assigns `refusal`) and
 * `notifyRefused` (params the Refusal).
 */
export const refusedOrFailed = [
  {
    guard: { type: 'isFinalRefusal', params: rejection },
    target: 'refused',
    actions: [
      { type: 'keepRefusal', params: rejection },
      {
        type: 'notifyRefused',
        params: ({ event }: { event: { error: unknown } }) => refusalOf(event.error),
      },
    ],
  },
  { target: 'failed', actions: { type: 'keepRefusal', params: rejection } },
] as const;
