import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Element } from 'bpmn-js/lib/model/Types';
import { Button } from '#client/ui/button.tsx';
import type { BpmnInstance } from './bpmn-canvas.tsx';
import { conditionBody, ruleImplementation, type TaskParam } from './bpmn-conventions.ts';
import {
  KNOWN_PARAMS,
  TASK_KINDS,
  editorOf,
  elementLabel,
  isDefaultFlow,
  isTaskKind,
  pickableElements,
  propsOf,
  selectElement,
  taskImplementation,
} from './bpmn-model.ts';
import { taskTypeLabel } from './task-type-label.ts';

const inputClass =
  'w-full rounded-md border border-slate-400 px-3 py-2 text-sm disabled:bg-slate-100 disabled:text-slate-600';
const labelClass = 'text-sm font-medium text-slate-800';

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, hintId: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children(id, hintId)}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The properties of the element selected on the canvas, beside it: its name; for a service task
 * its type from the registry and its parameters; for a business rule task its decision table;
 * for a flow out of a choosing gateway its condition (FEEL); for a timer its duration. A select
 * of all elements lets a keyboard user pick one without the mouse. Read-only, it shows the same
 * disabled. Every change is a bpmn-js command (undo works, the editor turns "unsaved").
 */
export function PropertiesPanel({
  instance,
  element,
  readOnly,
  taskTypes,
  decisionTables,
}: {
  /** Grows with every change of the diagram: the panel reads the element anew. */
  revision: number;
  instance: BpmnInstance;
  /** The selected element; null: none. */
  element: Element | null;
  readOnly: boolean;
  taskTypes: readonly string[];
  decisionTables: readonly { code: string; name: string }[];
}) {
  const { t } = useTranslation('workflows');
  const elements = pickableElements(instance);
  const props = element ? propsOf(element) : null;
  // The canvas swaps its viewer for a modeler a render after the page says "editable": until
  // then this is a viewer, which has nothing to edit with.
  const canEdit = !readOnly && instance.get('modeling', false) !== null;
  const edit = canEdit ? editorOf(instance) : null;

  const setParams = (params: TaskParam[]) => {
    if (!element || !edit || !props?.task) return;
    edit.setImplementation(element, taskImplementation(props.task.type, params));
  };

  return (
    <section
      aria-labelledby="wf-properties-title"
      className="flex w-full flex-col gap-4 rounded-md border border-slate-300 bg-white p-4 lg:w-80"
    >
      <h2 id="wf-properties-title" className="text-lg font-semibold text-slate-900">
        {t('panel.title')}
      </h2>
      <Field label={t('panel.element')}>
        {(id) => (
          <select
            id={id}
            className={inputClass}
            value={props?.id ?? ''}
            onChange={(event) => selectElement(instance, event.target.value)}
          >
            <option value="">{t('panel.none_selected')}</option>
            {elements.map((e) => (
              <option key={e.id} value={e.id}>
                {`${elementLabel(instance, e.id)} (${t(`kinds.${kindKey(e.type)}` as 'kinds.task')})`}
              </option>
            ))}
          </select>
        )}
      </Field>
      {!element || !props ? (
        <p className="text-sm text-slate-700">{t('panel.select_hint')}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="wf-element-kind">
            {t(`kinds.${kindKey(props.type)}` as 'kinds.task')} · {props.id}
          </p>
          <Field label={t('panel.name')}>
            {(id) => (
              <input
                id={id}
                className={inputClass}
                value={props.name}
                disabled={readOnly}
                onChange={(event) => edit?.setName(element, event.target.value)}
              />
            )}
          </Field>
          {isTaskKind(props.type) ? (
            <Field label={t('panel.task_kind')}>
              {(id) => (
                <select
                  id={id}
                  className={inputClass}
                  value={props.type}
                  disabled={readOnly}
                  onChange={(event) => edit?.replace(element, { type: event.target.value })}
                >
                  {TASK_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {t(`kinds.${kindKey(kind)}` as 'kinds.task')}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          {props.type === 'bpmn:IntermediateCatchEvent' && props.duration === null && !readOnly ? (
            <Button
              variant="secondary"
              onClick={() =>
                edit?.replace(element, {
                  type: 'bpmn:IntermediateCatchEvent',
                  eventDefinitionType: 'bpmn:TimerEventDefinition',
                })
              }
            >
              {t('panel.make_timer')}
            </Button>
          ) : null}
          {props.task ? (
            <>
              <Field label={t('panel.task_type')} hint={t('panel.task_type_hint')}>
                {(id, hintId) => (
                  <select
                    id={id}
                    aria-describedby={hintId}
                    className={inputClass}
                    value={props.task!.type}
                    disabled={readOnly}
                    onChange={(event) => {
                      // What was filled in stays; the new type's own parameters are offered
                      // below as empty rows.
                      const kept = props.task!.params.filter((p) => p.value.trim());
                      edit?.setImplementation(
                        element,
                        taskImplementation(event.target.value, kept),
                      );
                    }}
                  >
                    <option value="">{t('panel.choose_type')}</option>
                    {/* A type the registry does not know (an older file) stays visible. */}
                    {props.task!.type && !taskTypes.includes(props.task!.type) ? (
                      <option value={props.task!.type}>{props.task!.type}</option>
                    ) : null}
                    {taskTypes.map((type) => (
                      <option key={type} value={type}>
                        {taskTypeLabel(t, type)}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <ParamsEditor
                params={props.task.params}
                known={KNOWN_PARAMS[props.task.type] ?? []}
                readOnly={readOnly}
                onChange={setParams}
              />
            </>
          ) : null}
          {props.decisionTable !== null ? (
            <Field label={t('panel.decision_table')} hint={t('panel.decision_table_hint')}>
              {(id, hintId) => (
                <select
                  id={id}
                  aria-describedby={hintId}
                  className={inputClass}
                  value={props.decisionTable!}
                  disabled={readOnly}
                  onChange={(event) =>
                    edit?.setImplementation(element, ruleImplementation(event.target.value))
                  }
                >
                  <option value="">{t('panel.choose_table')}</option>
                  {props.decisionTable &&
                  !decisionTables.some((d) => d.code === props.decisionTable) ? (
                    <option value={props.decisionTable}>{props.decisionTable}</option>
                  ) : null}
                  {decisionTables.map((table) => (
                    <option key={table.code} value={table.code}>
                      {table.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          {props.condition !== null ? (
            <Field label={t('panel.condition')} hint={t('panel.condition_hint')}>
              {(id, hintId) => (
                <textarea
                  id={id}
                  aria-describedby={hintId}
                  rows={3}
                  className={`${inputClass} font-mono`}
                  value={props.condition!}
                  disabled={readOnly}
                  onChange={(event) =>
                    edit?.setCondition(element, conditionBody(event.target.value))
                  }
                />
              )}
            </Field>
          ) : null}
          {props.condition !== null ? (
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-4"
                checked={isDefaultFlow(element)}
                disabled={readOnly}
                onChange={(event) => edit?.setDefaultFlow(element, event.target.checked)}
              />
              {t('panel.default_flow')}
            </label>
          ) : null}
          {props.duration !== null ? (
            <Field label={t('panel.duration')} hint={t('panel.duration_hint')}>
              {(id, hintId) => (
                <input
                  id={id}
                  aria-describedby={hintId}
                  className={`${inputClass} font-mono`}
                  value={props.duration!}
                  disabled={readOnly}
                  onChange={(event) => edit?.setDuration(element, event.target.value)}
                />
              )}
            </Field>
          ) : null}
        </>
      )}
    </section>
  );
}

/** `bpmn:ServiceTask` -> `service_task`: the key of the kind's name. */
export function kindKey(type: string): string {
  const local = type.replace(/^bpmn:/, '');
  const key = local.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  return KNOWN_KINDS.has(key) ? key : 'other';
}

const KNOWN_KINDS = new Set([
  'task',
  'user_task',
  'service_task',
  'business_rule_task',
  'script_task',
  'start_event',
  'end_event',
  'intermediate_catch_event',
  'intermediate_throw_event',
  'boundary_event',
  'exclusive_gateway',
  'parallel_gateway',
  'inclusive_gateway',
  'event_based_gateway',
  'sequence_flow',
  'sub_process',
]);

/** The parameters of a service task as rows of name and value, with add and remove. */
function ParamsEditor({
  params,
  known,
  readOnly,
  onChange,
}: {
  params: TaskParam[];
  known: readonly string[];
  readOnly: boolean;
  onChange: (params: TaskParam[]) => void;
}) {
  const { t } = useTranslation('workflows');
  // The parameters the type knows and the task does not set yet are offered as empty rows.
  const rows = [
    ...params,
    ...known
      .filter((name) => !params.some((p) => p.name === name))
      .map((name) => ({
        name,
        value: '',
      })),
  ];
  const update = (index: number, change: Partial<TaskParam>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className={labelClass}>{t('panel.params')}</legend>
      <p className="text-xs text-slate-700">{t('panel.params_hint')}</p>
      {rows.map((row, index) => (
        <div key={index} className="flex items-center gap-2">
          <input
            aria-label={t('panel.param_name', { index: index + 1 })}
            className={`${inputClass} w-28`}
            value={row.name}
            disabled={readOnly}
            onChange={(event) => update(index, { name: event.target.value })}
          />
          <input
            aria-label={t('panel.param_value', { name: row.name || index + 1 })}
            className={inputClass}
            value={row.value}
            disabled={readOnly}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          {readOnly ? null : (
            <Button
              variant="secondary"
              aria-label={t('panel.param_remove', { name: row.name || index + 1 })}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              ×
            </Button>
          )}
        </div>
      ))}
      {readOnly ? null : (
        <Button
          variant="secondary"
          className="self-start"
          // A row needs a name to be written into the task: it starts with one to rename.
          onClick={() => onChange([...rows, { name: freeName(rows), value: '' }])}
        >
          {t('panel.param_add')}
        </Button>
      )}
    </fieldset>
  );
}

function freeName(rows: readonly TaskParam[]): string {
  let n = rows.length + 1;
  while (rows.some((r) => r.name === `param${n}`)) n++;
  return `param${n}`;
}
