import { useCallback, useMemo } from 'react';
import { getCustomSchema } from '#client/api/settings-client.ts';
import { getGeneral } from '#client/api/tenant-client.ts';
import { buildCustomSchema, type CustomField } from '#client/ui/form/custom-schema.ts';
import { useLoad } from '#client/ui/use-load.ts';
import { CLAIM_ENTITY_TYPE, isoToday } from '#common/claims.ts';

export interface ClaimFormContext {
  /** The tenant's claim custom schema: the fields to render and the schema that checks them. */
  custom: ReturnType<typeof buildCustomSchema>;
  /** The workspace's time zone: "today" and a policy's first day are its days (as the service). */
  timeZone: string;
  today: () => string;
}

/**
 * What a claim form needs beyond the claim: the tenant's claim custom fields and the workspace's
 * time zone. A failed schema is a failure (the required custom fields would be unknown and the
 * save would only fail); without the general settings the browser's time zone stands in, since
 * the service checks the dates anyway.
 */
export function useClaimFormContext(accountIndex: number) {
  const load = useCallback(
    async (signal: AbortSignal) => {
      const [schema, general] = await Promise.all([
        getCustomSchema(accountIndex, CLAIM_ENTITY_TYPE, signal),
        getGeneral(accountIndex, signal).then(
          ({ general: settings }) => settings.time_zone,
          (error: unknown) => {
            if (signal.aborted) throw error;
            console.warn('general settings failed; using the browser time zone', error);
            return null;
          },
        ),
      ]);
      return { fields: (schema?.fields ?? []) as CustomField[], timeZone: general };
    },
    [accountIndex],
  );
  const { state, retry } = useLoad(load, 'claim form context');
  const context = useMemo((): ClaimFormContext | null => {
    if (state.kind !== 'ready') return null;
    const timeZone =
      state.value.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
    return {
      custom: buildCustomSchema(state.value.fields),
      timeZone,
      today: () => isoToday(timeZone),
    };
  }, [state]);
  return { state: state.kind, context, retry };
}
