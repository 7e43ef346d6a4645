import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { ClaimStatus } from '#client/api/claims-client.ts';
import { claimQueries } from '#client/api/claims-queries.ts';
import type { TransitionRule } from '#client/api/leads-client.ts';
import { allLoaded, loadStateOf, mapLoaded, retryFailed } from '#client/ui/load-state.ts';

export interface ClaimWorkflow {
  statuses: ClaimStatus[];
  rules: TransitionRule[];
}

/**
 * The tenant's claim statuses and transition rules (claimQueries), as one load: the page names
 * statuses with them and the data tab offers the moves. Each reader calls this; both share one
 * request per key. `retry` asks again only what failed.
 */
export function useClaimWorkflow(accountIndex: number) {
  const queries = useQueries({
    queries: [claimQueries.statuses(accountIndex), claimQueries.rules(accountIndex)],
  });
  const [statusesQuery, rulesQuery] = queries;
  const workflow = mapLoaded(
    allLoaded<[ClaimStatus[], TransitionRule[]]>([
      loadStateOf(statusesQuery),
      loadStateOf(rulesQuery),
    ]),
    ([statuses, rules]): ClaimWorkflow => ({ statuses, rules }),
  );
  const statusList = statusesQuery.data;
  const statuses = useMemo(
    () => (workflow.kind === 'ready' && statusList ? statusList : []),
    [workflow.kind, statusList],
  );
  const statusName = useCallback(
    (slug: string) => statuses.find((s) => s.slug === slug)?.name ?? slug,
    [statuses],
  );
  return { workflow, statuses, statusName, retry: () => retryFailed(queries) };
}
