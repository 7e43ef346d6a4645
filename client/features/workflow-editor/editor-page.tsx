import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Link,
  useBlocker,
  useLocation,
  useNavigate,
  useParams,
  type BlockerFunction,
} from 'react-router';
import { fromPromise } from 'xstate';
import type { Element } from 'bpmn-js/lib/model/Types';
import { ApiError } from '#client/api/fetch-json.ts';
import { accountKey } from '#client/api/query-keys.ts';
import { listAllDecisionTables } from '#client/api/decision-tables-client.ts';
import {
  createWorkflow,
  getServiceEventTypes,
  getWorkflow,
  findWorkflowVersion,
  getWorkflowVersion,
  patchWorkflow,
} from '#client/api/workflows-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import {
  hasUnsavedChanges,
  workflowEditorMachine,
  type CheckRequest,
  type EditorCheck,
  type EditorProblem,
  type LoadRequest,
  type LoadedWorkflow,
  type SaveVersionRefusal,
  type SaveVersionRequest,
} from '#machines/workflow-editor.machine.ts';
import { BpmnCanvas, type BpmnInstance } from './bpmn-canvas.tsx';
import { NEW_DIAGRAM } from './bpmn-conventions.ts';
import { withLayout } from '#client/entities/workflow/bpmn-layout.ts';
import { diagramProblems, elementLabel, selectElement } from './bpmn-model.ts';
import { CompareVersions } from './compare-versions.tsx';
import { PropertiesPanel } from './properties-panel.tsx';
import { StartOn } from './start-on.tsx';
import { useWorkflowAbilities } from './use-workflow-abilities.ts';

const CODE = /^[a-z0-9_-]{1,80}$/;
const inputClass = 'w-full rounded-md border border-slate-400 px-3 py-2 disabled:bg-slate-100';

/** What the bpmn-example page hands over: its diagram, to start a new workflow from. */
export interface NewWorkflowState {
  definition?: string;
  name?: string;
}

/**
 * The workflow editor (spec routes /management/workflow-editor/new and
 * /{workFlowCode}/{versionNumber?}): the bpmn-js Modeler with a properties panel of our own, the
 * workflow's name (and a new one's code), save as a new version, the comparison with the previous
 * version and the domain events that start the workflow. Remounted per workflow; another version
 * of the same workflow is read in place (workflowEditorMachine).
 */
export default function WorkflowEditorPage() {
  const { workflowCode, versionNumber } = useParams();
  const parsed = versionNumber === undefined ? null : Number.parseInt(versionNumber, 10);
  return (
    <WorkflowEditor
      key={workflowCode ?? 'new'}
      code={workflowCode ?? null}
      versionParam={parsed !== null && Number.isFinite(parsed) ? parsed : null}
    />
  );
}

/** The service's refusal as the machine classifies it (workflowEditorMachine). */
function refusalOf(error: unknown): SaveVersionRefusal | unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 409 && error.code === 'version_conflict') {
    const latest = (error.body as { latestVersionNumber?: unknown } | null)?.latestVersionNumber;
    return { kind: 'conflict', latestVersionNumber: typeof latest === 'number' ? latest : 0 };
  }
  return { kind: 'refused', code: error.code, detail: error.message };
}

function WorkflowEditor({
  code,
  versionParam,
}: {
  code: string | null;
  versionParam: number | null;
}) {
  const { t } = useTranslation('workflows');
  const { accountIndex, canCreate, canUpdate } = useWorkflowAbilities();
  const navigate = useNavigate();
  const location = useLocation();
  const confirm = useConfirm();
  const handed = (location.state ?? null) as NewWorkflowState | null;
  const nameId = useId();
  const codeId = useId();

  const [instance, setInstance] = useState<BpmnInstance | null>(null);
  const [selected, setSelected] = useState<Element | null>(null);
  // Bumped on every change of the diagram, so the panel shows the element as it is now.
  const [revision, setRevision] = useState(0);
  const [name, setName] = useState(handed?.name ?? '');
  const [newCode, setNewCode] = useState('');
  const [importFailed, setImportFailed] = useState(false);

  const eventTypes = useQuery({
    queryKey: [...accountKey(accountIndex), 'workflows', 'service-event-types'],
    queryFn: ({ signal }) => getServiceEventTypes(accountIndex, signal),
  });
  const tables = useQuery({
    queryKey: [...accountKey(accountIndex), 'workflows', 'decision-tables'],
    queryFn: ({ signal }) => listAllDecisionTables(accountIndex, signal),
  });
  const taskTypes = eventTypes.data?.taskTypes;

  // The actors read what is current when they run.
  const live = useRef({ instance, name, newCode, taskTypes: taskTypes ?? [] });
  useEffect(() => {
    live.current = { instance, name, newCode, taskTypes: taskTypes ?? [] };
  });
  // The XML last saved from here, and the canvas it was drawn on: there the saved version is
  // what is drawn already, not to be imported again (that would reset the view and the undo).
  const savedXml = useRef<{ xml: string; on: BpmnInstance | null } | null>(null);

  const actor = useActorRef(
    workflowEditorMachine.provide({
      actors: {
        loadWorkflow: fromPromise<LoadedWorkflow, LoadRequest>(async ({ input, signal }) => {
          try {
            const workflow = await getWorkflow(accountIndex, input.code, signal);
            const latest = (workflow.versions ?? []).at(-1);
            // A number the workflow lacks: the service answers "Can't load, versionWorkFlowCode".
            const wanted =
              input.versionNumber === null
                ? latest
                : await findWorkflowVersion(
                    accountIndex,
                    workflow.code,
                    input.versionNumber,
                    signal,
                  );
            if (!wanted || !latest) throw new Error(`workflow ${workflow.code} has no version`);
            const version = await getWorkflowVersion(accountIndex, wanted.code, signal);
            return {
              workflowId: workflow.id,
              code: workflow.code,
              name: workflow.name,
              versionNumber: version.versionNumber,
              latestVersionNumber: latest.versionNumber,
              definition: version.definition,
            };
          } catch (error) {
            throw refusalOf(error);
          }
        }),
        validate: fromPromise<EditorCheck, CheckRequest>(async ({ input }) => {
          const {
            instance: bpmn,
            name: typedName,
            newCode: typedCode,
            taskTypes: types,
          } = live.current;
          if (!bpmn) return { ok: false, problems: [{ code: 'not_ready' }] };
          const problems: EditorProblem[] = [];
          if (!typedName.trim()) problems.push({ code: 'no_name' });
          if (input.isNew && typedCode && !CODE.test(typedCode))
            problems.push({ code: 'bad_code' });
          for (const p of diagramProblems(bpmn, types)) {
            problems.push({
              code: p.code,
              element: p.element,
              ...(p.param ? { param: p.param } : {}),
            });
          }
          if (problems.length) return { ok: false, problems };
          const { xml } = await bpmn.saveXML({ format: true });
          return { ok: true, definition: xml ?? '' };
        }),
        saveVersion: fromPromise<LoadedWorkflow, SaveVersionRequest>(async ({ input, signal }) => {
          const typedName = live.current.name.trim();
          try {
            if (input.isNew) {
              const created = await createWorkflow(
                accountIndex,
                {
                  name: typedName,
                  ...(live.current.newCode ? { code: live.current.newCode } : {}),
                  definition: input.definition,
                },
                signal,
              );
              savedXml.current = { xml: input.definition, on: live.current.instance };
              return {
                workflowId: created.id,
                code: created.code,
                name: created.name,
                versionNumber: 1,
                latestVersionNumber: 1,
                definition: input.definition,
              };
            }
            const saved = await patchWorkflow(
              accountIndex,
              input.workflowId!,
              {
                name: typedName,
                definition: input.definition,
                ...(input.baseVersionNumber === null
                  ? {}
                  : { baseVersionNumber: input.baseVersionNumber }),
              },
              signal,
            );
            const version = saved.versions?.at(-1)?.versionNumber ?? 0;
            savedXml.current = { xml: input.definition, on: live.current.instance };
            return {
              workflowId: saved.id,
              code: saved.code,
              name: saved.name,
              versionNumber: version,
              latestVersionNumber: version,
              definition: input.definition,
            };
          } catch (error) {
            throw refusalOf(error);
          }
        }),
      },
    }),
    { input: { code, versionNumber: versionParam } },
  );
  const state = useSelector(actor, (s) => s);
  const { loaded, failure, conflict, savedVersion } = state.context;
  const readOnly = state.matches('readOnly') || !mayEdit();
  const busy = state.matches('validating') || state.matches('savingVersion');
  const dirty = hasUnsavedChanges(state);

  function mayEdit() {
    return code === null ? canCreate : canUpdate;
  }

  usePageTitle(loaded ? loaded.name : t('editor.new_title'));

  // The name comes with each version read.
  const loadedName = loaded?.name;
  const [nameOf, setNameOf] = useState<LoadedWorkflow | null>(null);
  if (loaded && nameOf !== loaded) {
    setNameOf(loaded);
    if (loadedName !== undefined) setName(loadedName);
  }

  // The diagram shown: the version read, or a new workflow's first drawing. Imported when the
  // version changes, never after this editor's own save (what is drawn is what was saved).
  const definition =
    loaded?.definition ?? (code === null ? (handed?.definition ?? NEW_DIAGRAM) : null);
  useEffect(() => {
    if (!instance || definition === null) return;
    const saved = savedXml.current;
    if (saved && saved.xml === definition && saved.on === instance) {
      savedXml.current = null;
      return;
    }
    let stale = false;
    void instance.importXML(withLayout(definition)).then(
      () => {
        if (stale) return;
        setImportFailed(false);
        instance.get<{ zoom: (level: string) => void }>('canvas').zoom('fit-viewport');
        setSelected(null);
        setRevision((r) => r + 1);
      },
      () => {
        if (!stale) setImportFailed(true);
      },
    );
    return () => {
      stale = true;
    };
  }, [instance, definition]);

  // The diagram's events: a change makes the editor unsaved, a selection fills the panel.
  useEffect(() => {
    if (!instance) return;
    const onChanged = (event: { trigger?: string | null }) => {
      setRevision((r) => r + 1);
      // Importing a diagram clears the stack ('clear'): that is no change of the user's.
      if (event.trigger === 'execute' || event.trigger === 'undo' || event.trigger === 'redo') {
        actor.send({ type: 'edit' });
      }
    };
    const onSelection = (event: { newSelection: Element[] }) => {
      setSelected(event.newSelection.length === 1 ? event.newSelection[0]! : null);
    };
    const onElement = () => setRevision((r) => r + 1);
    instance.on('commandStack.changed', onChanged);
    instance.on('selection.changed', onSelection);
    instance.on('elements.changed', onElement);
    return () => {
      instance.off('commandStack.changed', onChanged);
      instance.off('selection.changed', onSelection);
      instance.off('elements.changed', onElement);
    };
  }, [instance, actor]);

  // Another version named in the address (a link, the back button): read it in place. The
  // address without a number names the latest.
  useEffect(() => {
    const shown = actor.getSnapshot().context.loaded;
    if (!shown) return;
    const wanted = versionParam ?? shown.latestVersionNumber;
    if (wanted !== shown.versionNumber || (versionParam === null && !isLatest(shown))) {
      actor.send({ type: 'version.open', versionNumber: versionParam });
    }
  }, [versionParam, actor]);
  // A version saved or read here that the address does not name yet: the address follows, so a
  // reload opens what is shown. A new workflow's first save opens its own page.
  const shownVersion = loaded?.versionNumber ?? null;
  const paramRef = useRef(versionParam);
  useEffect(() => {
    paramRef.current = versionParam;
  });
  useEffect(() => {
    if (!loaded) return;
    const base = `/u/${accountIndex}/management/workflow-editor/${encodeURIComponent(loaded.code)}`;
    if (code === null) {
      void navigate(base, { replace: true, state: { savedVersion: loaded.versionNumber } });
    } else if (paramRef.current !== null && paramRef.current !== shownVersion) {
      void navigate(`${base}/${shownVersion}`, { replace: true });
    }
    // Only when the version shown changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownVersion, loaded?.code]);

  // Leaving with unsaved changes asks first (links, the menu, the back button; a reload or a
  // closed tab gets the browser's own question).
  // Asked of the machine at the moment of leaving: the editor's own navigation right after a
  // save must not meet the state of the render before it.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedChanges(actor.getSnapshot()) && currentLocation.pathname !== nextLocation.pathname,
    [actor],
  );
  const blocker = useBlocker(shouldBlock);
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void confirm({
      title: t('leave.title'),
      message: t('leave.message'),
      confirmLabel: t('leave.confirm'),
      tone: 'danger',
    }).then((leave) => {
      asking.current = false;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker, confirm, t]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const onReady = useCallback((next: BpmnInstance | null) => setInstance(next), []);
  const savedOnArrival = (location.state as { savedVersion?: number } | null)?.savedVersion;
  const savedNotice = savedVersion ?? (state.matches('clean') ? savedOnArrival : undefined) ?? null;

  if (state.matches('loadFailed')) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-slate-900">{t('editor.title')}</h1>
        <Alert tone={failure?.code === 'not_found' ? 'warning' : 'danger'}>
          {failure?.code === 'not_found' ? t('editor.not_found') : t('editor.load_failed')}
        </Alert>
        <div className="flex gap-3">
          <Button variant="secondary" onClick={() => actor.send({ type: 'load.retry' })}>
            {t('editor.retry')}
          </Button>
          <Link
            to={`/u/${accountIndex}/management/workflow-editor`}
            className="self-center underline"
          >
            {t('editor.back_to_list')}
          </Link>
        </div>
      </div>
    );
  }

  const latestLink = loaded
    ? `/u/${accountIndex}/management/workflow-editor/${encodeURIComponent(loaded.code)}`
    : '';
  const problemText = (p: EditorProblem) =>
    t(`problems.${p.code}` as 'problems.no_name', {
      element: instance && p.element ? elementLabel(instance, p.element) : (p.element ?? ''),
      param: p.param ?? '',
    });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-slate-900">
          {loaded ? loaded.name : t('editor.new_title')}
        </h1>
        {loaded ? (
          <p className="text-sm text-slate-800" data-testid="wf-version">
            {t('editor.version', {
              version: loaded.versionNumber,
              latest: loaded.latestVersionNumber,
            })}
          </p>
        ) : null}
      </div>
      {state.matches('loading') ? <Spinner label={t('editor.loading')} /> : null}
      {importFailed ? <Alert tone="danger">{t('editor.import_failed')}</Alert> : null}
      {state.matches('readOnly') && loaded ? (
        <Alert tone="info">
          {t('editor.read_only', { version: loaded.versionNumber })}{' '}
          <Link to={latestLink} className="font-medium underline">
            {t('editor.open_latest', { version: loaded.latestVersionNumber })}
          </Link>
        </Alert>
      ) : null}
      {!mayEdit() && !state.matches('readOnly') ? (
        <Alert tone="info">{t('editor.no_right')}</Alert>
      ) : null}
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor={nameId} className="text-sm font-medium text-slate-800">
            {t('editor.name')}
          </label>
          <input
            id={nameId}
            className={inputClass}
            value={name}
            disabled={readOnly || busy}
            onChange={(event) => {
              setName(event.target.value);
              actor.send({ type: 'edit' });
            }}
          />
        </div>
        {code === null ? (
          <div className="flex w-64 flex-col gap-1">
            <label htmlFor={codeId} className="text-sm font-medium text-slate-800">
              {t('editor.code')}
            </label>
            <input
              id={codeId}
              className={`${inputClass} font-mono`}
              value={newCode}
              aria-describedby={`${codeId}-hint`}
              disabled={readOnly || busy}
              onChange={(event) => {
                setNewCode(event.target.value.trim());
                actor.send({ type: 'edit' });
              }}
            />
            <p id={`${codeId}-hint`} className="text-xs text-slate-700">
              {t('editor.code_hint')}
            </p>
          </div>
        ) : null}
        <div className="flex items-center gap-3">
          {readOnly ? null : (
            <Button
              disabled={busy || !state.can({ type: 'save' })}
              onClick={() => actor.send({ type: 'save' })}
            >
              {busy ? t('editor.saving') : t('editor.save')}
            </Button>
          )}
          <span className="text-sm text-slate-800" role="status">
            {dirty
              ? t('editor.unsaved')
              : savedNotice
                ? t('editor.saved', { version: savedNotice })
                : ''}
          </span>
        </div>
      </div>
      {state.matches('failed') && failure ? (
        <Alert tone="danger">
          {failure.code === 'invalid' ? (
            <>
              <p className="font-medium">{t('errors.invalid')}</p>
              <ul className="mt-1 list-disc pl-5">
                {failure.problems.map((p, i) => (
                  <li key={i}>
                    {p.element && instance ? (
                      <button
                        type="button"
                        className="text-left underline"
                        onClick={() => selectElement(instance, p.element!)}
                      >
                        {problemText(p)}
                      </button>
                    ) : (
                      problemText(p)
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <p className="font-medium">
                {t(`errors.${errorKey(failure.code)}` as 'errors.failed')}
              </p>
              {failure.detail ? (
                <p className="mt-1" data-testid="wf-error-detail">
                  {t('errors.detail', { detail: failure.detail })}
                </p>
              ) : null}
            </>
          )}
          <Button
            variant="secondary"
            className="mt-2"
            onClick={() => actor.send({ type: 'failure.dismiss' })}
          >
            {t('errors.dismiss')}
          </Button>
        </Alert>
      ) : null}
      {state.context.knownLatest !== null && !state.matches('conflict') ? (
        <Alert tone="warning">
          {t('editor.stale_base', {
            latest: state.context.knownLatest,
            version: loaded?.versionNumber ?? 0,
          })}
        </Alert>
      ) : null}
      {state.matches('conflict') && conflict ? (
        <Alert tone="danger">
          <p className="font-medium">
            {t('conflict.message', {
              version: loaded?.versionNumber ?? 0,
              latest: conflict.latestVersionNumber,
            })}
          </p>
          <div className="mt-2 flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.loadLatest' })}>
              {t('conflict.load_latest', { latest: conflict.latestVersionNumber })}
            </Button>
            <Button onClick={() => actor.send({ type: 'conflict.saveAnyway' })}>
              {t('conflict.save_anyway')}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.cancel' })}>
              {t('conflict.cancel')}
            </Button>
          </div>
        </Alert>
      ) : null}
      <div className="flex flex-col gap-4 lg:flex-row">
        <div className="min-w-0 flex-1">
          <BpmnCanvas
            key={readOnly ? 'view' : 'edit'}
            readOnly={readOnly}
            label={t('editor.canvas')}
            onReady={onReady}
          />
          <p className="mt-1 text-xs text-slate-700">
            {readOnly ? t('editor.canvas_hint_view') : t('editor.canvas_hint')}
          </p>
        </div>
        {instance ? (
          <PropertiesPanel
            revision={revision}
            instance={instance}
            element={selected}
            readOnly={readOnly || busy}
            taskTypes={taskTypes ?? []}
            decisionTables={tables.data ?? []}
          />
        ) : null}
      </div>
      {loaded ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <CompareVersions accountIndex={accountIndex} loaded={loaded} instance={instance} />
          <StartOn
            accountIndex={accountIndex}
            workflowId={loaded.workflowId}
            canUpdate={canUpdate}
            query={eventTypes}
          />
        </div>
      ) : null}
    </div>
  );
}

const isLatest = (w: LoadedWorkflow) => w.versionNumber >= w.latestVersionNumber;

/** The service's error codes the editor names; anything else is the generic failure. */
const KNOWN_ERRORS = new Set([
  'invalid_bpmn',
  'unknown_task_type',
  'duplicate',
  'validation_error',
  'not_found',
  'forbidden',
]);
const errorKey = (code: string) => (KNOWN_ERRORS.has(code) ? code : 'failed');
