import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOption } from './custom-schema.ts';
import { instantOfWallTime, wallTimeOf } from '#common/date-display.ts';
import { formatInputDate, isIsoDate, parseDisplayDate, useDateDisplay } from './dates.ts';
import { translateMessage } from './messages.ts';

/** Spec, section 9: text areas have 5 rows by default. */
export const TEXTAREA_ROWS = 5;

const inputClass =
  'rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 focus:border-blue-700 aria-[invalid=true]:border-red-700';

export interface FieldProps {
  label: string;
  /** Encoded messages from `validateForm` (translated here). */
  errors?: readonly string[] | undefined;
  hint?: string;
  required?: boolean;
  disabled?: boolean;
  name?: string;
}

/** Label, control and the error list, tied together with `aria-describedby`. */
function FieldFrame({
  label,
  errors,
  hint,
  required,
  children,
  inline = false,
}: FieldProps & { children: (a11y: ControlA11y) => ReactNode; inline?: boolean }) {
  const { t } = useTranslation('ui');
  const id = useId();
  const hasErrors = (errors?.length ?? 0) > 0;
  const describedBy = [hasErrors ? `${id}-errors` : '', hint ? `${id}-hint` : ''].filter(Boolean);
  const a11y: ControlA11y = {
    id,
    'aria-invalid': hasErrors ? true : undefined,
    'aria-describedby': describedBy.length ? describedBy.join(' ') : undefined,
    'aria-required': required ? true : undefined,
  };
  const labelNode = (
    <label htmlFor={id} className="text-sm font-medium text-slate-800">
      {label}
      {required ? (
        <span aria-hidden="true" className="text-red-700">
          {' *'}
        </span>
      ) : null}
    </label>
  );
  return (
    <div className="flex flex-col gap-1">
      {inline ? (
        <div className="flex items-center gap-2">
          {children(a11y)}
          {labelNode}
        </div>
      ) : (
        <>
          {labelNode}
          {children(a11y)}
        </>
      )}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {hasErrors ? (
        <ul id={`${id}-errors`} className="text-sm text-red-700">
          {errors!.map((error) => (
            <li key={error}>{translateMessage((key, values) => t(key as never, values), error)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

interface ControlA11y {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
}

export function TextInput({
  value,
  onChange,
  type = 'text',
  maxLength,
  autoComplete,
  readOnly,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel' | 'url' | 'password';
  maxLength?: number | undefined;
  autoComplete?: string;
  readOnly?: boolean;
}) {
  return (
    <FieldFrame {...field}>
      {(a11y) => (
        <input
          {...a11y}
          type={type}
          name={field.name}
          value={value}
          disabled={field.disabled}
          readOnly={readOnly}
          maxLength={maxLength}
          autoComplete={autoComplete}
          className={inputClass}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

export function TextareaInput({
  value,
  onChange,
  rows = TEXTAREA_ROWS,
  maxLength,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  maxLength?: number | undefined;
}) {
  return (
    <FieldFrame {...field}>
      {(a11y) => (
        <textarea
          {...a11y}
          name={field.name}
          rows={rows}
          value={value}
          maxLength={maxLength}
          disabled={field.disabled}
          className={inputClass}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/**
 * A number input that keeps the typed text (so "1," can be typed on) and reports the text; the
 * schema converts it (`numberField`), giving the number type error for unparsable text.
 */
export function NumberInput({
  value,
  onChange,
  minimum: _minimum,
  maximum: _maximum,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  /** Kept for callers; the schema checks the range (aria-valuemin is not allowed on text). */
  minimum?: number | undefined;
  maximum?: number | undefined;
}) {
  return (
    <FieldFrame {...field}>
      {(a11y) => (
        <input
          {...a11y}
          type="text"
          inputMode="decimal"
          name={field.name}
          value={value}
          disabled={field.disabled}
          className={inputClass}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

export function SelectInput({
  value,
  onChange,
  options,
  placeholder,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  options: readonly FieldOption[];
  /** What the empty choice says, when it means more than "choose" (a default). */
  placeholder?: string;
}) {
  const { t } = useTranslation('ui');
  return (
    <FieldFrame {...field}>
      {(a11y) => (
        <select
          {...a11y}
          name={field.name}
          value={value}
          disabled={field.disabled}
          className={inputClass}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{placeholder ?? t('form.select_placeholder')}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export function CheckboxInput({
  checked,
  onChange,
  ...field
}: FieldProps & { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <FieldFrame {...field} inline>
      {(a11y) => (
        <input
          {...a11y}
          type="checkbox"
          name={field.name}
          checked={checked}
          disabled={field.disabled}
          className="size-4"
          onChange={(event) => onChange(event.target.checked)}
        />
      )}
    </FieldFrame>
  );
}

/** A list typed one entry per line: the lines, trimmed, without the empty ones. */
export const entriesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const sameEntries = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * A list value (a custom field of type array): with options, a checkbox for each in a fieldset
 * named by the label; without, one entry per line of a text area. Reports the list of texts.
 */
export function ListInput({
  value,
  options,
  onChange,
  ...field
}: FieldProps & {
  value: readonly string[];
  options?: readonly { value: string; label: string }[] | undefined;
  onChange: (value: string[]) => void;
}) {
  const { t } = useTranslation('ui');
  const id = useId();
  // The text as typed: rebuilt from the list alone, the new line just typed (an empty entry,
  // dropped from the list) would vanish under the cursor and no second entry could be started.
  const [typed, setTyped] = useState(() => value.join('\n'));
  const shownText = sameEntries(entriesOf(typed), value) ? typed : value.join('\n');
  if (!options) {
    return (
      <TextareaInput
        {...field}
        value={shownText}
        onChange={(text) => {
          setTyped(text);
          onChange(entriesOf(text));
        }}
      />
    );
  }
  const hasErrors = (field.errors?.length ?? 0) > 0;
  return (
    <fieldset
      className="flex flex-col gap-1"
      aria-describedby={hasErrors ? `${id}-errors` : undefined}
      aria-invalid={hasErrors ? true : undefined}
    >
      <legend className="text-sm font-medium text-slate-800">
        {field.label}
        {field.required ? (
          <span aria-hidden="true" className="text-red-700">
            {' *'}
          </span>
        ) : null}
      </legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name={field.name}
              value={option.value}
              checked={value.includes(option.value)}
              disabled={field.disabled}
              className="size-4"
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? options
                        .map((o) => o.value)
                        .filter((v) => v === option.value || value.includes(v))
                    : value.filter((v) => v !== option.value),
                )
              }
            />
            {option.label}
          </label>
        ))}
      </div>
      {hasErrors ? (
        <ul id={`${id}-errors`} className="text-sm text-red-700">
          {field.errors!.map((message) => (
            <li key={message}>
              {translateMessage((key, values) => t(key as never, values), message)}
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}

/**
 * A date typed as DD.MM.YYYY and reported as ISO (YYYY-MM-DD); '' when cleared. Text that is
 * not a date is reported as typed, so that the schema shows the invalid-date message.
 */
export function DateInput({
  value,
  onChange,
  ...field
}: FieldProps & { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('ui');
  const [text, setText] = useState(() => formatInputDate(value));
  // Follow outside changes (reset, load) without overwriting what is being typed.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (isIsoDate(value) || value === '') setText(formatInputDate(value));
  }
  return (
    // The format in the language's letters (TT.MM.JJJJ, DD.MM.RRRR), as its error messages say it.
    <FieldFrame {...field} hint={field.hint ?? t('form.date_format')}>
      {(a11y) => (
        <div className="flex gap-1">
          <input
            {...a11y}
            type="text"
            inputMode="numeric"
            placeholder={t('form.date_format')}
            name={field.name}
            value={text}
            disabled={field.disabled}
            className={`${inputClass} flex-1`}
            onChange={(event) => {
              setText(event.target.value);
              const iso = parseDisplayDate(event.target.value);
              onChange(event.target.value.trim() === '' ? '' : (iso ?? event.target.value));
            }}
          />
          <button
            type="button"
            aria-label={t('form.clear_date')}
            disabled={field.disabled || text === ''}
            className="rounded-md border border-slate-300 px-2 text-slate-700 hover:bg-slate-100 disabled:opacity-40"
            onClick={() => {
              setText('');
              onChange('');
            }}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      )}
    </FieldFrame>
  );
}

/** Date and time with a 15-minute step; reported as an ISO timestamp (UTC), '' when empty. */
export function DateTimeInput({
  value,
  onChange,
  min,
  max,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  min?: string | undefined;
  max?: string | undefined;
}) {
  // The tenant's zone, not the browser's: the times entered here are the ones every list and
  // detail of the tenant shows (formatInstant).
  const { timeZone } = useDateDisplay();
  const local = (iso: string | undefined) => wallTimeOf(iso, timeZone);
  return (
    <FieldFrame {...field}>
      {(a11y) => (
        <input
          {...a11y}
          type="datetime-local"
          step={TIME_STEP_SECONDS}
          name={field.name}
          value={local(value) ?? ''}
          min={local(min)}
          max={local(max)}
          disabled={field.disabled}
          className={inputClass}
          onChange={(event) => onChange(instantOfWallTime(event.target.value, timeZone) ?? '')}
        />
      )}
    </FieldFrame>
  );
}

/** Spec, section 5: the time picker steps by 15 minutes. */
export const TIME_STEP_SECONDS = 15 * 60;
