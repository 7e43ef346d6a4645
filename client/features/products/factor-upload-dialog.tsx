import { useActorRef, useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import {
  uploadProductFactor,
  validateProductFactor,
  type FactorRow,
  type FactorSummary,
  type ProductFactor,
} from '#client/api/product-extras-client.ts';
import {
  fileImportMachine,
  type ImportRefusal,
  type ImportRequest,
} from '#machines/file-import.machine.ts';
import { failureCode } from '#machines/failure-code.ts';
import type { FileProblem } from '#client/api/product-extras-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { FileInput, FileProblemList, problemsOf } from './file-upload-parts.tsx';
import { TableHead, useFailureMessage } from './page-parts.tsx';
import { lookupNameSchema } from './product-forms.ts';

/** Rows of a factor table: its key columns and the value. */
export function FactorRowsTable({
  caption,
  keyColumns,
  rows,
}: {
  caption: string;
  keyColumns: string[];
  rows: FactorRow[];
}) {
  const { t } = useTranslation('products');
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <TableHead columns={[...keyColumns, t('factors.value')]} />
      <tbody>
        {rows.map((row, index) => (
          <tr key={index} className="border-b border-slate-200">
            {row.keys.map((key, k) => (
              <td key={k} className="py-1 pr-4">
                {key}
              </td>
            ))}
            <td className="py-1">{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Uploads a factor table, checked first (spec section 5: "validated by a server call before
 * saving"), driven by `fileImportMachine`: "Check file" lists every problem of the file with its
 * line, or the table it found; only a checked file can be saved. Another name or file needs a new
 * check.
 */
export function FactorUploadDialog({
  accountIndex,
  productVersionId,
  onClose,
}: {
  accountIndex: number;
  productVersionId: number;
  onClose: (savedName: string | null) => void;
}) {
  const { t } = useTranslation('products');
  const failureMessage = useFailureMessage();
  const [errors, setErrors] = useState<FieldErrors>({});
  // The failed call itself, for its translated message (the machine keeps only its code).
  const lastFailure = useRef<unknown>(null);
  const nameLabel = t('factors.name');

  const request = (input: ImportRequest) => ({
    productVersionId,
    name: input.name.trim(),
    file: input.file as File,
  });
  const refused = (error: unknown): ImportRefusal => {
    const problems = problemsOf(error);
    if (problems) return { kind: 'invalid', problems };
    lastFailure.current = error;
    return { kind: 'failed', code: failureCode(error) };
  };
  const actor = useActorRef(
    fileImportMachine.provide({
      actors: {
        checkFile: fromPromise<unknown, ImportRequest>(({ input }) =>
          validateProductFactor(accountIndex, request(input)).catch((error: unknown) => {
            throw refused(error);
          }),
        ),
        saveFile: fromPromise<unknown, ImportRequest>(({ input }) =>
          uploadProductFactor(accountIndex, request(input)).catch((error: unknown) => {
            throw refused(error);
          }),
        ),
      },
      actions: {
        notifySaved: (_, { saved }) => onClose((saved as ProductFactor).name),
      },
    }),
  );
  const state = useSelector(actor, (s) => s);
  const { name, summary, problems, error } = state.context;
  const busy = state.matches('checking') || state.matches('saving');
  const valid = state.matches({ form: 'valid' });
  const checked = summary as FactorSummary | null;

  const submit = () => {
    if (busy) return;
    if (valid) {
      actor.send({ type: 'import.save' });
      return;
    }
    const result = validateForm(lookupNameSchema(nameLabel), { name });
    setErrors(result.errors);
    if (result.success) actor.send({ type: 'import.check' });
  };

  return (
    <FormDialog title={t('factors.upload')} busy={busy} onDismiss={() => onClose(null)} wide>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextInput
          label={nameLabel}
          value={name}
          onChange={(value) => actor.send({ type: 'name.change', name: value })}
          required
          errors={errors.name}
          hint={t('factors.name_hint')}
          maxLength={63}
        />
        <FileInput
          label={t('factors.file')}
          hint={t('factors.file_hint')}
          accept=".csv,text/csv"
          onChange={(chosen) => actor.send({ type: 'file.choose', file: chosen })}
        />
        {state.matches({ form: 'invalid' }) ? (
          <FileProblemList problems={problems as FileProblem[]} intro={t('factors.invalid')} />
        ) : null}
        {error !== null ? (
          <Alert tone="danger">
            {error === 'choose_file'
              ? t('factors.choose_file')
              : failureMessage(lastFailure.current)}
          </Alert>
        ) : null}
        {valid && checked ? (
          <div role="status" className="flex flex-col gap-2 text-sm text-slate-800">
            <p className="font-semibold text-green-900">
              {t('factors.valid', {
                rows: checked.rowCount,
                keys: checked.keyColumns.join(', '),
              })}
            </p>
            {checked.replacesId !== null ? (
              <p>{t('factors.replaces', { name: checked.name })}</p>
            ) : null}
            <FactorRowsTable
              caption={t('factors.preview', { name: checked.name })}
              keyColumns={checked.keyColumns}
              rows={checked.preview}
            />
          </div>
        ) : null}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => onClose(null)} disabled={busy}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy
              ? state.matches('saving')
                ? t('actions.saving')
                : t('factors.checking')
              : valid
                ? t('actions.save')
                : t('factors.check')}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
