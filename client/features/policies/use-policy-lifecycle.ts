import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { fromPromise } from 'xstate';
import type { PolicyAction } from '#common/policy-lifecycle.ts';
import {
  applyDraft,
  createDraft,
  deleteDraft,
  patchDraft,
  restorePolicyVersion,
  terminatePolicy,
  withdrawPolicy,
  type Policy,
  type PolicyObjectPatch,
} from '#client/api/policies-client.ts';
import {
  policyLifecycleMachine,
  type LifecyclePolicy,
  type LifecycleSubmission,
} from '#machines/policy-lifecycle.machine.ts';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** One lifecycle call of the insurance service for what the machine submits. */
function submit(
  accountIndex: number,
  { action, policyId, basedOnVersionId, params }: LifecycleSubmission,
  signal: AbortSignal,
): Promise<Policy> {
  const ref = String(policyId);
  // The machine names the version from the policy it holds; none (a draft action without a
  // draft) cannot pass the service's check, which then says why.
  const based = basedOnVersionId ?? 0;
  const calls: Record<PolicyAction, () => Promise<Policy>> = {
    terminate: () =>
      terminatePolicy(
        accountIndex,
        ref,
        {
          basedOnVersionId: based,
          terminationDate: String(params.terminationDate ?? ''),
          reason: text(params.reason),
        },
        signal,
      ),
    withdraw: () =>
      withdrawPolicy(
        accountIndex,
        ref,
        { basedOnVersionId: based, reason: text(params.reason) },
        signal,
      ),
    restoreVersion: () =>
      restorePolicyVersion(
        accountIndex,
        ref,
        { basedOnVersionId: based, versionId: Number(params.versionId) },
        signal,
      ),
    createDraft: () => createDraft(accountIndex, ref, based, signal),
    patchDraft: () =>
      patchDraft(
        accountIndex,
        ref,
        {
          basedOnVersionId: based,
          policyObjects: (params.policyObjects ?? []) as PolicyObjectPatch[],
          ...(text(params.effectiveFrom) ? { effectiveFrom: text(params.effectiveFrom) } : {}),
        },
        signal,
      ),
    deleteDraft: () => deleteDraft(accountIndex, ref, based, signal),
    applyDraft: () => applyDraft(accountIndex, ref, based, signal),
  };
  return calls[action]();
}

/**
 * The policy lifecycle statechart of one detail screen, bound to the service: it follows the
 * policy the screen shows (`policy.loaded`), and a changed policy the service answers goes back
 * to the screen through `onChanged`.
 */
export function usePolicyLifecycle(
  accountIndex: number,
  policy: Policy,
  onChanged: (policy: Policy) => void,
) {
  const onChangedRef = useRef(onChanged);
  useEffect(() => {
    onChangedRef.current = onChanged;
  }, [onChanged]);
  const actor = useActorRef(
    policyLifecycleMachine.provide({
      actors: {
        submitAction: fromPromise<LifecyclePolicy, LifecycleSubmission>(({ input, signal }) =>
          submit(accountIndex, input, signal),
        ),
      },
      actions: {
        notifyDone: ({ context }) => onChangedRef.current(context.policy as Policy),
      },
    }),
    { input: { policy } },
  );
  useEffect(() => {
    actor.send({ type: 'policy.loaded', policy });
  }, [actor, policy]);
  const state = useSelector(actor, (s) => s);
  return { actor, state };
}
