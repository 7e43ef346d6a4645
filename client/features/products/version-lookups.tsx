import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteNamedRange,
  deleteProductFactor,
  type FactorValues,
  type NamedRange,
} from '#client/api/product-extras-client.ts';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { forgetFactorTables } from '#client/api/products-queries.ts';
import { FactorRowsTable, FactorUploadDialog } from './factor-upload-dialog.tsx';
import { NamedRangeDialog } from './named-range-dialog.tsx';
import { TableHead, useDeleteTexts } from './page-parts.tsx';
import { RowButton } from '#client/ui/row-button.tsx';

/** Deletes behind the confirm dialog (the version page's), then reloads it. */
export type Remove = (
  texts: { title: string; message: string; done: string },
  request: () => Promise<unknown>,
) => void;

const cell = 'py-2 pr-4 align-top';

function SectionHeading({
  id,
  title,
  action,
}: {
  id: string;
  title: string;
  action: { label: string; onClick: () => void } | null;
}) {
  return (
    <div className="flex items-center justify-between gap-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {action ? <Button onClick={action.onClick}>{action.label}</Button> : null}
    </div>
  );
}

/** The version's factor tables: upload (checked first), rows, delete. */
export function FactorsSection({
  accountIndex,
  versionId,
  factors,
  canEdit,
  remove,
  onSaved,
}: {
  accountIndex: number;
  versionId: number;
  factors: FactorValues;
  canEdit: boolean;
  remove: Remove;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation('products');
  const deleteTexts = useDeleteTexts();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const tables = Object.values(factors);
  const shown = viewing ? factors[viewing] : undefined;

  return (
    <section aria-labelledby="factors-heading" className="flex flex-col gap-3">
      <SectionHeading
        id="factors-heading"
        title={t('factors.title')}
        action={canEdit ? { label: t('factors.upload'), onClick: () => setUploading(true) } : null}
      />
      {tables.length === 0 ? (
        <p className="text-sm text-slate-700">{t('factors.empty')}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('factors.table')}</caption>
          <TableHead
            columns={[
              t('columns.name'),
              t('factors.keys'),
              t('factors.rows'),
              t('factors.file_column'),
              t('columns.updated'),
              t('columns.actions'),
            ]}
          />
          <tbody>
            {tables.map((table) => (
              <tr key={table.id} className="border-b border-slate-200">
                <td className={cell}>
                  <code>{table.name}</code>
                </td>
                <td className={cell}>{table.keyColumns.join(', ')}</td>
                <td className={cell}>{table.rowCount}</td>
                <td className={cell}>{table.filename}</td>
                <td className={cell}>{formatDateTime(table.updatedAt)}</td>
                <td className={`${cell} flex flex-wrap gap-1`}>
                  <RowButton
                    label={t('factors.view_rows')}
                    name={t('factors.view_rows_named', { name: table.name })}
                    onClick={() => setViewing(table.name)}
                  />
                  {canEdit ? (
                    <RowButton
                      label={t('actions.delete')}
                      name={t('actions.delete_named', { name: table.name })}
                      onClick={() =>
                        remove(deleteTexts('factors', { name: table.name }), async () => {
                          await deleteProductFactor(accountIndex, table.id);
                          // An older table's delete leaves the newest updatedAt unchanged.
                          forgetFactorTables(queryClient, accountIndex, versionId);
                        })
                      }
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {uploading ? (
        <FactorUploadDialog
          accountIndex={accountIndex}
          productVersionId={versionId}
          onClose={(name) => {
            setUploading(false);
            if (name) onSaved(t('factors.saved', { name }));
          }}
        />
      ) : null}
      {shown ? (
        <FormDialog
          title={t('factors.rows_of', { name: shown.name })}
          busy={false}
          onDismiss={() => setViewing(null)}
          wide
        >
          <div className="flex flex-col gap-4">
            <FactorRowsTable
              caption={t('factors.rows_of', { name: shown.name })}
              keyColumns={shown.keyColumns}
              rows={shown.rows}
            />
            <div className="flex justify-end">
              <Button variant="secondary" onClick={() => setViewing(null)}>
                {t('factors.close')}
              </Button>
            </div>
          </div>
        </FormDialog>
      ) : null}
    </section>
  );
}

/** The version's named ranges: bands shown in the table; add, edit, delete. */
export function NamedRangesSection({
  accountIndex,
  versionId,
  ranges,
  canEdit,
  remove,
  onSaved,
}: {
  accountIndex: number;
  versionId: number;
  ranges: NamedRange[];
  canEdit: boolean;
  remove: Remove;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation('products');
  const deleteTexts = useDeleteTexts();
  const [editing, setEditing] = useState<{ range: NamedRange | null } | null>(null);
  const bandText = (range: NamedRange) =>
    range.bands.map((b) => `${b.from} – ${b.to ?? t('ranges.open_end')}: ${b.value}`).join('; ');

  return (
    <section aria-labelledby="ranges-heading" className="flex flex-col gap-3">
      <SectionHeading
        id="ranges-heading"
        title={t('ranges.title')}
        action={
          canEdit ? { label: t('ranges.add'), onClick: () => setEditing({ range: null }) } : null
        }
      />
      {ranges.length === 0 ? (
        <p className="text-sm text-slate-700">{t('ranges.empty')}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('ranges.title')}</caption>
          <TableHead
            columns={[
              t('columns.name'),
              t('ranges.bands'),
              t('columns.updated'),
              ...(canEdit ? [t('columns.actions')] : []),
            ]}
          />
          <tbody>
            {ranges.map((range) => (
              <tr key={range.id} className="border-b border-slate-200">
                <td className={cell}>
                  <code>{range.name}</code>
                </td>
                <td className={cell}>{bandText(range)}</td>
                <td className={cell}>{formatDateTime(range.updatedAt)}</td>
                {canEdit ? (
                  <td className={`${cell} flex flex-wrap gap-1`}>
                    <RowButton
                      label={t('actions.edit')}
                      name={t('actions.edit_named', { name: range.name })}
                      onClick={() => setEditing({ range })}
                    />
                    <RowButton
                      label={t('actions.delete')}
                      name={t('actions.delete_named', { name: range.name })}
                      onClick={() =>
                        remove(deleteTexts('ranges', { name: range.name }), () =>
                          deleteNamedRange(accountIndex, range.id),
                        )
                      }
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <NamedRangeDialog
          accountIndex={accountIndex}
          productVersionId={versionId}
          range={editing.range}
          onClose={(name) => {
            setEditing(null);
            if (name) onSaved(t('ranges.saved', { name }));
          }}
        />
      ) : null}
    </section>
  );
}
