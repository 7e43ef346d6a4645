import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { claimQueries } from '#client/api/claims-queries.ts';
import { useLocalizedFields } from '#client/i18n/translated-text.ts';
import { buildCustomSchema, type CustomField } from '#client/ui/form/custom-schema.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { isoToday } from '#common/claims.ts';

export interface ClaimFormContext {
  /** The tenant's claim custom schema: the fields to render and the schema that checks them. */
  custom: ReturnType<typeof buildCustomSchema>;
  /** The workspace's time zone: "today" and a policy's first day are its days (as the service). */
  timeZone: string;
  today: () => string;
}

/** What a claim form needs beyond the claim (claimQueries.formContext), ready to render. */
export function useClaimFormContext(accountIndex: number) {
  const query = useQuery(claimQueries.formContext(accountIndex));
  const state = loadStateOf(query);
  const data = query.data;
  const fields = useLocalizedFields((data?.fields as CustomField[] | undefined) ?? null);
  // Built once per answer and language: the form's schema is memoised on it.
  const context = useMemo((): ClaimFormContext | null => {
    if (!data || !fields) return null;
    const timeZone = data.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
    return {
      custom: buildCustomSchema(fields),
      timeZone,
      today: () => isoToday(timeZone),
    };
  }, [data, fields]);
  return { state: state.kind, context, retry: () => void query.refetch() };
}
