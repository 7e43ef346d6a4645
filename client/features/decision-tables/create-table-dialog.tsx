import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createDecisionTable, type DecisionTable } from '#client/api/decision-tables-client.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { emptyTable, writeDmn } from './dmn-table.ts';
import { refusalText } from './refusal-text.ts';

// The service's rule for a code (decision-table-routes.ts): checked here first, to say so at once.
const CODE = /^[\w-]{1,80}$/;

/**
 * "New decision table": its code and name, and what it starts from: an empty table (one input,
 * one output, one rule, written here) or a DMN file the user uploads. The service reads the file
 * and refuses one that is no decision table; its reason is shown, the dialog stays open.
 */
export function CreateTableDialog({
  accountIndex,
  onClose,
}: {
  accountIndex: number;
  onClose: (created: DecisionTable | null) => void;
}) {
  const { t } = useTranslation('decision_tables');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [start, setStart] = useState<'empty' | 'file'>('empty');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const fileId = useId();
  const startName = useId();

  // The dialog's flow (open, busy, refused with everything kept) is SubmitDialog's statechart.
  const submit = () => {
    const found: Record<string, string[]> = {};
    // Encoded ui messages: the fields translate them (client/ui/form/messages.ts).
    if (!code.trim()) found.code = [message('messages.fieldRequired', { field: t('create.code') })];
    else if (!CODE.test(code.trim())) found.code = [message('messages.invalid_value')];
    if (!name.trim()) found.name = [message('messages.fieldRequired', { field: t('create.name') })];
    if (start === 'file' && !file) found.file = [t('create.file_required')];
    setErrors(found);
    if (Object.keys(found).length) return false;
    return (async () => {
      const definition =
        start === 'file' && file
          ? await file.text()
          : writeDmn(emptyTable(code.trim(), name.trim()));
      const created = await createDecisionTable(accountIndex, {
        code: code.trim(),
        name: name.trim(),
        definition,
      });
      onClose(created);
    })();
  };

  return (
    <SubmitDialog
      title={t('create.title')}
      submitLabel={t('create.submit')}
      busyLabel={t('create.busy')}
      cancelLabel={t('create.cancel')}
      submit={submit}
      failureMessage={(error) => refusalText(t, error)}
      onCancel={() => onClose(null)}
    >
      <TextInput
        label={t('create.code')}
        value={code}
        onChange={setCode}
        required
        maxLength={80}
        hint={t('create.code_hint')}
        errors={errors.code}
      />
      <TextInput
        label={t('create.name')}
        value={name}
        onChange={setName}
        required
        maxLength={200}
        errors={errors.name}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">{t('create.start')}</legend>
        {(['empty', 'file'] as const).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name={startName}
              className="size-4"
              checked={start === value}
              onChange={() => setStart(value)}
            />
            {t(`create.start_${value}`)}
          </label>
        ))}
      </fieldset>
      {start === 'file' ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="text-sm font-medium text-slate-800">
            {t('create.file')}
          </label>
          <input
            id={fileId}
            type="file"
            accept=".dmn,.xml,application/xml,text/xml"
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={errors.file ? `${fileId}-error` : undefined}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="text-sm text-slate-800"
          />
          {errors.file ? (
            <p id={`${fileId}-error`} className="text-sm text-red-700">
              {errors.file[0]}
            </p>
          ) : null}
        </div>
      ) : null}
    </SubmitDialog>
  );
}
