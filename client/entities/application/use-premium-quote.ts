import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { calculatePremium, issuesOf } from '#client/api/applications-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import type { ObjectDataIssue, PolicyObjectInput } from '#common/policy-object-data.ts';
import {
  premiumQuoteMachine,
  type QuoteAnswer,
  type QuoteRequest,
} from '#machines/premium-quote.machine.ts';

/** Asks the service; its 400 with issues is the "invalid" verdict, not a failure. */
const calculateFor = (accountIndex: number) =>
  fromPromise<QuoteAnswer, QuoteRequest>(async ({ input, signal }) => {
    try {
      const { premium, missing } = await calculatePremium(accountIndex, input, signal);
      return premium ? { kind: 'quoted', premium } : { kind: 'incomplete', missing };
    } catch (error) {
      const issues = error instanceof ApiError && error.status === 400 ? issuesOf(error.body) : [];
      if (issues.length) return { kind: 'invalid', issues: issues as ObjectDataIssue[] };
      throw error;
    }
  });

/**
 * The live premium of the data a form holds: each new `policyObjects` (compared by content) goes
 * to the premium quote statechart, which waits for a pause in typing and asks the service.
 */
export function usePremiumQuote(
  accountIndex: number,
  productVersionId: number,
  policyObjects: PolicyObjectInput[],
) {
  const machine = useMemo(
    () => premiumQuoteMachine.provide({ actors: { calculatePremium: calculateFor(accountIndex) } }),
    [accountIndex],
  );
  const actor = useActorRef(machine, { input: { productVersionId } });
  const data = JSON.stringify(policyObjects);
  useEffect(() => {
    actor.send({ type: 'quote.change', policyObjects: JSON.parse(data) as PolicyObjectInput[] });
  }, [actor, data]);
  const snapshot = useSelector(actor, (s) => s);
  const retry = useCallback(() => actor.send({ type: 'quote.retry' }), [actor]);
  return { snapshot, retry };
}

export type PremiumQuote = ReturnType<typeof usePremiumQuote>;
