import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  WORKFLOW_EVENT_TYPES,
  defineServiceEvent,
  type ServiceEventTypes,
} from '#client/api/workflows-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';

// 'claim.created' -> 'claim_created': the key of the event's name (dots nest in i18next).
const eventKey = (type: string) => type.replace(/\./g, '_');

/**
 * "Start on": the domain events that start an instance of this workflow (service events, spec
 * section 7). A bound event says so; an unbound one offers to bind it (who may update). The
 * service has no call to unbind (spec: define and types only), so none is offered.
 */
export function StartOn({
  accountIndex,
  workflowId,
  canUpdate,
  query,
}: {
  accountIndex: number;
  workflowId: number;
  canUpdate: boolean;
  query: UseQueryResult<ServiceEventTypes>;
}) {
  const { t } = useTranslation('workflows');
  const define = useMutation({
    mutationFn: (eventType: string) => defineServiceEvent(accountIndex, { eventType, workflowId }),
    onSuccess: () => void query.refetch(),
  });
  const bound = (type: string) =>
    query.data?.items.find((i) => i.type === type)?.workflows.some((w) => w.id === workflowId) ??
    false;
  return (
    <section aria-labelledby="wf-start-on-title" className="flex flex-col gap-2">
      <h2 id="wf-start-on-title" className="text-lg font-semibold text-slate-900">
        {t('start_on.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('start_on.hint')}</p>
      {query.isError ? (
        <RetryAlert message={t('start_on.failed')} onRetry={() => void query.refetch()} />
      ) : null}
      {query.data ? (
        <ul className="flex flex-col gap-2">
          {WORKFLOW_EVENT_TYPES.map((type) => {
            const event = t(`events.${eventKey(type)}` as 'events.claim_created');
            return (
              <li key={type} className="flex flex-wrap items-center gap-3 text-sm text-slate-900">
                {bound(type) ? (
                  <span data-testid={`wf-bound-${eventKey(type)}`}>
                    {t('start_on.bound', { event })}
                  </span>
                ) : (
                  <>
                    <span>{t('start_on.not_bound', { event })}</span>
                    {canUpdate ? (
                      <Button
                        variant="secondary"
                        disabled={define.isPending}
                        onClick={() => define.mutate(type)}
                      >
                        {t('start_on.bind', { event })}
                      </Button>
                    ) : null}
                  </>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      {define.isError ? <Alert tone="danger">{t('start_on.bind_failed')}</Alert> : null}
    </section>
  );
}
