import { useCallback, useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BpmnCanvas, type BpmnInstance } from './bpmn-canvas.tsx';
import { EXAMPLE_WORKFLOW } from './bpmn-example.ts';
import { withLayout } from '#client/entities/workflow/bpmn-layout.ts';
import type { NewWorkflowState } from './editor-page.tsx';
import { useWorkflowAbilities } from './use-workflow-abilities.ts';

const code = 'rounded bg-slate-100 px-1 font-mono text-sm text-slate-900';

/**
 * The BPMN example (spec route /management/bpmn-example): a small workflow shown read-only (the
 * NavigatedViewer: zoom and pan) beside the conventions a modeller follows here, and a button that
 * opens it in the editor as a new workflow.
 */
export default function BpmnExamplePage() {
  const { t } = useTranslation('workflows');
  usePageTitle(t('example.title'));
  const navigate = useNavigate();
  const { accountIndex, canCreate } = useWorkflowAbilities();
  const [instance, setInstance] = useState<BpmnInstance | null>(null);
  const [failed, setFailed] = useState(false);
  const onReady = useCallback((next: BpmnInstance | null) => setInstance(next), []);

  useEffect(() => {
    if (!instance) return;
    instance.importXML(withLayout(EXAMPLE_WORKFLOW)).then(
      () => instance.get<{ zoom: (level: string) => void }>('canvas').zoom('fit-viewport'),
      () => setFailed(true),
    );
  }, [instance]);

  const open = () => {
    const state: NewWorkflowState = {
      definition: EXAMPLE_WORKFLOW,
      name: t('example.workflow_name'),
    };
    void navigate(`/u/${accountIndex}/management/workflow-editor/new`, { state });
  };

  const rule = (key: string, example: string) => (
    <li>
      <Trans
        t={t}
        i18nKey={key as 'example.rules.service_task'}
        values={{ example }}
        components={{ code: <code className={code} /> }}
      />
    </li>
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-slate-900">{t('example.title')}</h1>
        {canCreate ? <Button onClick={open}>{t('example.open')}</Button> : null}
      </div>
      <p className="text-slate-800">{t('example.intro')}</p>
      {failed ? <Alert tone="danger">{t('example.failed')}</Alert> : null}
      <BpmnCanvas readOnly label={t('example.canvas')} onReady={onReady} />
      <section aria-labelledby="wf-rules-title" className="flex flex-col gap-2">
        <h2 id="wf-rules-title" className="text-lg font-semibold text-slate-900">
          {t('example.rules_title')}
        </h2>
        <ul className="flex list-disc flex-col gap-2 pl-5 text-slate-900">
          {rule('example.rules.service_task', 'claim.setStatus?status=approved')}
          {rule('example.rules.parameters', '{entityCode}')}
          {rule(
            'example.rules.task_types',
            'claim.setStatus, notification.sendEmail, lead.createFollowUp',
          )}
          {rule('example.rules.rule_task', 'dmn:claim-routing')}
          {rule('example.rules.condition', 'route = "fast-track"')}
          {rule('example.rules.default_flow', '')}
          {rule('example.rules.timer', 'P1D, PT2H')}
          {rule('example.rules.user_task', '')}
        </ul>
      </section>
    </div>
  );
}
