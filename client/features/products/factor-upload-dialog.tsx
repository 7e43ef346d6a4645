import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  uploadProductFactor,
  validateProductFactor,
  type FactorRow,
  type FactorSummary,
} from '#client/api/product-extras-client.ts';
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

type Check =
  | { kind: 'none' }
  | { kind: 'valid'; summary: FactorSummary }
  | { kind: 'invalid'; problems: FileProblem[] }
  | { kind: 'failed'; message: string };

/**
 * Uploads a factor table, checked first (spec section 5: "validated by a server call before
 * saving"): "Check file" lists every problem of the file with its line, or the table it found;
 * only a checked file can be saved. Another name or file needs a new check.
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
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [check, setCheck] = useState<Check>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const nameLabel = t('factors.name');

  const input = () => {
    const result = validateForm(lookupNameSchema(nameLabel), { name });
    setErrors(result.errors);
    if (!result.success) return null;
    if (!file) {
      setCheck({ kind: 'failed', message: t('factors.choose_file') });
      return null;
    }
    return { productVersionId, name: result.output.name, file };
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      const problems = problemsOf(error);
      setCheck(
        problems
          ? { kind: 'invalid', problems }
          : { kind: 'failed', message: failureMessage(error) },
      );
    } finally {
      setBusy(false);
    }
  };

  const validate = () => {
    const body = input();
    if (!body) return;
    void run(async () => {
      setCheck({ kind: 'valid', summary: await validateProductFactor(accountIndex, body) });
    });
  };

  const save = () => {
    const body = input();
    if (!body) return;
    void run(async () => {
      const saved = await uploadProductFactor(accountIndex, body);
      onClose(saved.name);
    });
  };

  const reset = () => setCheck({ kind: 'none' });

  return (
    <FormDialog title={t('factors.upload')} busy={busy} onDismiss={() => onClose(null)} wide>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) return;
          if (check.kind === 'valid') save();
          else validate();
        }}
      >
        <TextInput
          label={nameLabel}
          value={name}
          onChange={(value) => {
            setName(value);
            reset();
          }}
          required
          errors={errors.name}
          hint={t('factors.name_hint')}
          maxLength={63}
        />
        <FileInput
          label={t('factors.file')}
          hint={t('factors.file_hint')}
          accept=".csv,text/csv"
          onChange={(chosen) => {
            setFile(chosen);
            reset();
          }}
        />
        {check.kind === 'invalid' ? (
          <FileProblemList problems={check.problems} intro={t('factors.invalid')} />
        ) : null}
        {check.kind === 'failed' ? <Alert tone="danger">{check.message}</Alert> : null}
        {check.kind === 'valid' ? (
          <div role="status" className="flex flex-col gap-2 text-sm text-slate-800">
            <p className="font-semibold text-green-900">
              {t('factors.valid', {
                rows: check.summary.rowCount,
                keys: check.summary.keyColumns.join(', '),
              })}
            </p>
            {check.summary.replacesId !== null ? (
              <p>{t('factors.replaces', { name: check.summary.name })}</p>
            ) : null}
            <FactorRowsTable
              caption={t('factors.preview', { name: check.summary.name })}
              keyColumns={check.summary.keyColumns}
              rows={check.summary.preview}
            />
          </div>
        ) : null}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => onClose(null)} disabled={busy}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy
              ? check.kind === 'valid'
                ? t('actions.saving')
                : t('factors.checking')
              : check.kind === 'valid'
                ? t('actions.save')
                : t('factors.check')}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
