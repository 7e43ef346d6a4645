import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  HistorySection,
  historyKey,
  useFieldLabels,
} from '#client/entities/history/history-tab.tsx';
import { useParams } from 'react-router';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  deletePremiumFormula,
  deleteProductField,
  reorderPremiumFormulas,
  reorderProductFields,
  type InsuredObject,
  type PremiumFormula,
  type Product,
  type ProductField,
  type ProductVersion,
} from '#client/api/products-client.ts';
import type { FactorValues, NamedRange } from '#client/api/product-extras-client.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { useToast } from '#client/ui/toast.tsx';
import { deleteInsuredObject } from '#client/api/product-extras-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import {
  allLoaded,
  loadStateOf,
  mapLoaded,
  retryFailed,
  type LoadState,
} from '#client/ui/load-state.ts';
import { FieldDialog } from './field-dialog.tsx';
import { AddObjectDialog, RenameObjectDialog } from './insured-object-dialogs.tsx';
import { FactorsSection, NamedRangesSection } from './version-lookups.tsx';
import { FormulaDialog } from './formula-dialog.tsx';
import { TestCaseSection } from './test-case-section.tsx';
import {
  formulaPath,
  orderInsuredObjects,
  sortsFieldsByLabel,
} from '#common/insured-object-order.ts';
import {
  LinkButton,
  Loading,
  StatusBadge,
  useDeleteTexts,
  useFailureMessage,
  productLoadTexts,
} from './page-parts.tsx';
import { useProductAbilities } from './use-product-abilities.ts';
import { withProductTexts } from '#client/entities/product/product-texts.ts';
import { useCatalogueTexts } from '#client/entities/product/use-catalogue-texts.ts';
import { fieldKindKey, fieldTypeKey, unitKey } from './labels.ts';

/**
 * The product, its version and the version's parts, shown as one load. The parts are asked for
 * once the version is known to be the product's (as before the cache: a version id that is not
 * among the product's versions is as missing as a 404 of the service, and nothing else is read).
 * `reload` after a change invalidates the product and the version's parts, keeping them shown;
 * "Try again" asks again only what failed.
 */
function useVersionData(accountIndex: number, productId: string, versionId: string) {
  const queryClient = useQueryClient();
  const productQuery = useQuery(productQueries.detail(accountIndex, productId));
  const version = productQuery.data?.versions?.find((v) => String(v.id) === versionId);
  const id = version?.id ?? Number(versionId);
  const enabled = version !== undefined;
  const objectsQuery = useQuery({ ...productQueries.insuredObjects(accountIndex, id), enabled });
  const formulasQuery = useQuery({ ...productQueries.premiumFormulas(accountIndex, id), enabled });
  const factorsQuery = useQuery({ ...productQueries.factors(accountIndex, id), enabled });
  const rangesQuery = useQuery({ ...productQueries.namedRanges(accountIndex, id), enabled });
  const product = loadStateOf(productQuery);
  const state: LoadState<{
    product: Product;
    version: ProductVersion;
    objects: InsuredObject[];
    formulas: PremiumFormula[];
    factors: FactorValues;
    ranges: NamedRange[];
  }> =
    product.kind === 'ready' && !version
      ? { kind: 'failed', error: new ApiError(404, 'not_found', 'no such version', null) }
      : mapLoaded(
          allLoaded<[Product, InsuredObject[], PremiumFormula[], FactorValues, NamedRange[]]>([
            product,
            loadStateOf(objectsQuery),
            loadStateOf(formulasQuery),
            loadStateOf(factorsQuery),
            loadStateOf(rangesQuery),
          ]),
          ([product, objects, formulas, factors, ranges]) => ({
            product,
            version: version as ProductVersion,
            objects,
            formulas,
            factors,
            ranges,
          }),
        );
  const reload = () => {
    void queryClient.invalidateQueries({
      queryKey: productQueries.detail(accountIndex, productId).queryKey,
    });
    void queryClient.invalidateQueries({ queryKey: productQueries.version(accountIndex, id) });
    // The version's history is a section shown all along: read again with the change.
    void queryClient.invalidateQueries({ queryKey: historyKey(accountIndex) });
  };
  const retry = () =>
    retryFailed([productQuery, objectsQuery, formulasQuery, factorsQuery, rangesQuery]);
  return { state, reload, retry };
}

type Editing =
  | { kind: 'field'; object: InsuredObject; field: ProductField | null }
  | { kind: 'formula'; formula: PremiumFormula | null }
  | { kind: 'add-object' }
  | { kind: 'rename-object'; object: InsuredObject }
  | null;

const cell = 'py-2 pr-4 align-top';

/**
 * The version editor (spec route /management/product/{productId}/{versionId}): the insured
 * objects with their fields and the premium formulas. Only a draft is edited (the service refuses
 * changes to the others); reordering swaps two neighbours, as the service's reorder call does.
 */
export default function VersionPage() {
  const { t, i18n } = useTranslation('products');
  const { productId = '', versionId = '' } = useParams();
  const confirm = useConfirm();
  const toast = useToast();
  const failureMessage = useFailureMessage();
  const deleteTexts = useDeleteTexts();
  const abilities = useProductAbilities();
  const { accountIndex } = abilities;
  const [editing, setEditing] = useState<Editing>(null);
  const historyFields = useFieldLabels(['products:columns.']);

  const { state: data, reload, retry } = useVersionData(accountIndex, productId, versionId);
  const catalogue = useCatalogueTexts();
  const title =
    data.kind === 'ready'
      ? t('editor.title', { product: data.value.product.name, version: data.value.version.version })
      : t('editor.title_plain');
  usePageTitle(title);

  if (data.kind === 'loading') return <Loading />;
  if (data.kind === 'failed')
    return <LoadProblem error={data.error} {...productLoadTexts(t)} onRetry={retry} />;
  const { product, version, formulas, factors, ranges } = data.value;
  // Shown with the catalogue's names in the reader's language where a label is still the
  // catalogue's own (a new product has no translations); the dialogs edit what is stored.
  const stored = data.value.objects;
  const objects = orderInsuredObjects(withProductTexts(stored, {}, catalogue), i18n.language);
  const storedObject = (object: InsuredObject) => stored.find((o) => o.id === object.id) ?? object;
  const storedField = (object: InsuredObject, field: ProductField) =>
    storedObject(object).productFields?.find((f) => f.id === field.id) ?? field;
  const isDraft = version.status === 'draft';
  const canEditFields = isDraft && abilities.canUpdateVersion;
  const canAddFormula = isDraft && abilities.canCreateFormula;
  const canEditFormula = isDraft && abilities.canUpdateFormula;
  const canDeleteFormula = isDraft && abilities.canDeleteFormula;
  const variables = [
    ...objects.flatMap((o) => o.productFields.map((f) => formulaPath(o.name, f.name))),
    ...formulas.flatMap((f) => (f.variableName ? [f.variableName] : [])),
    ...Object.values(factors).map((f) => `factor('${f.name}', ${f.keyColumns.join(', ')})`),
    ...ranges.map((r) => `range('${r.name}', …)`),
  ];
  const saved = (message: string) => {
    toast({ message, tone: 'success' });
    reload();
  };

  /** A dialog's close: what it saved (a value, or true) is told and shown; null or false was cancelled. */
  const closeDialog =
    <V,>(message: (value: V) => string) =>
    (value: V | null | false) => {
      setEditing(null);
      if (value) saved(message(value));
    };

  const run = (work: Promise<unknown>, done: string) =>
    work.then(
      () => {
        toast({ message: done, tone: 'success' });
        reload();
      },
      (error: unknown) => toast({ message: failureMessage(error), tone: 'danger' }),
    );

  /** Deletes after the confirm dialog; a refusal stays in the dialog with its reason. */
  const remove = (
    { done, ...texts }: { title: string; message: string; done: string },
    request: () => Promise<unknown>,
  ) =>
    void confirm({
      ...texts,
      tone: 'danger',
      confirmLabel: t('actions.delete'),
      action: () =>
        request().catch((error: unknown) => {
          throw new Error(failureMessage(error));
        }),
    }).then((confirmed) => {
      if (!confirmed) return;
      toast({ message: done, tone: 'success' });
      reload();
    });

  const removeField = (field: ProductField) =>
    remove(
      {
        title: t('confirm.delete_field_title'),
        message: t('confirm.delete_field', { label: field.label }),
        done: t('messages.field_deleted', { label: field.label }),
      },
      () => deleteProductField(accountIndex, field.id),
    );

  const removeFormula = (formula: PremiumFormula) =>
    remove(
      {
        title: t('confirm.delete_formula_title'),
        message: t('confirm.delete_formula', { name: formula.name }),
        done: t('messages.formula_deleted', { name: formula.name }),
      },
      () => deletePremiumFormula(accountIndex, formula.id),
    );

  const moveButtons = (
    name: string,
    index: number,
    count: number,
    swap: (otherIndex: number) => void,
  ) => (
    <>
      <Button
        variant="ghost"
        disabled={index === 0}
        aria-label={t('actions.move_up_named', { name })}
        onClick={() => swap(index - 1)}
      >
        ↑
      </Button>
      <Button
        variant="ghost"
        disabled={index === count - 1}
        aria-label={t('actions.move_down_named', { name })}
        onClick={() => swap(index + 1)}
      >
        ↓
      </Button>
    </>
  );

  /** A row's edit and delete buttons, each left out without its action. */
  const editAndDelete = (name: string, edit: (() => void) | null, del: (() => void) | null) => (
    <>
      {edit ? (
        <Button variant="ghost" aria-label={t('actions.edit_named', { name })} onClick={edit}>
          {t('actions.edit')}
        </Button>
      ) : null}
      {del ? (
        <Button variant="ghost" aria-label={t('actions.delete_named', { name })} onClick={del}>
          {t('actions.delete')}
        </Button>
      ) : null}
    </>
  );

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-3 text-2xl font-bold text-slate-900">
          {title}
          <StatusBadge status={version.status} />
        </h1>
        <LinkButton to={`/u/${accountIndex}/management/product/${product.id}`}>
          {t('actions.back_to_product')}
        </LinkButton>
      </div>
      {!isDraft ? <p className="text-slate-700">{t('editor.read_only')}</p> : null}

      <section aria-labelledby="objects-heading" className="flex flex-col gap-6">
        <div className="flex items-center justify-between gap-3">
          <h2 id="objects-heading" className="text-lg font-semibold text-slate-900">
            {t('editor.insured_objects')}
          </h2>
          {canEditFields ? (
            <Button onClick={() => setEditing({ kind: 'add-object' })}>
              {t('editor.add_object')}
            </Button>
          ) : null}
        </div>
        {objects.map((object) => {
          const byLabel = sortsFieldsByLabel(object.name);
          return (
            <section
              key={object.id}
              aria-label={t('editor.object', { label: object.label, name: object.name })}
              className="flex flex-col gap-2 rounded-md border border-slate-200 p-4"
            >
              <div className="flex items-center justify-between gap-3">
                <h3 className="font-semibold text-slate-900">
                  {object.label} <span className="font-normal text-slate-600">({object.name})</span>
                </h3>
                {canEditFields ? (
                  <div className="flex flex-wrap gap-1">
                    <Button
                      variant="secondary"
                      aria-label={t('actions.add_field_to', { label: object.label })}
                      onClick={() => setEditing({ kind: 'field', object, field: null })}
                    >
                      {t('actions.add_field')}
                    </Button>
                    <Button
                      variant="ghost"
                      aria-label={t('objects.rename_named', { label: object.label })}
                      onClick={() =>
                        setEditing({ kind: 'rename-object', object: storedObject(object) })
                      }
                    >
                      {t('objects.rename')}
                    </Button>
                    {object.name === 'default' ? null : (
                      <Button
                        variant="ghost"
                        aria-label={t('objects.delete_named', { label: object.label })}
                        onClick={() =>
                          remove(deleteTexts('objects', { label: object.label }), () =>
                            deleteInsuredObject(accountIndex, object.id),
                          )
                        }
                      >
                        {t('actions.delete')}
                      </Button>
                    )}
                  </div>
                ) : null}
              </div>
              {object.productFields.length === 0 ? (
                <p className="text-sm text-slate-700">{t('editor.no_fields')}</p>
              ) : (
                <DataTable<ProductField>
                  caption={t('editor.fields_of', { label: object.label })}
                  pad={cell}
                  rows={object.productFields}
                  rowKey={(field) => field.id}
                  columns={[
                    { id: 'label', header: t('columns.label'), cell: (field) => field.label },
                    {
                      id: 'field_name',
                      header: t('columns.field_name'),
                      cell: (field) => <code>{formulaPath(object.name, field.name)}</code>,
                    },
                    {
                      id: 'type',
                      header: t('columns.type'),
                      cell: (field) =>
                        `${t(fieldTypeKey(field.type))}${field.kind ? ` (${t(fieldKindKey(field.kind))})` : ''}`,
                    },
                    {
                      id: 'required',
                      header: t('columns.required'),
                      cell: (field) => (field.isRequired ? t('yes') : t('no')),
                    },
                    {
                      id: 'range',
                      header: t('columns.range'),
                      cell: (field) =>
                        field.minimum !== null || field.maximum !== null
                          ? `${field.minimum ?? '…'} – ${field.maximum ?? '…'}`
                          : '',
                    },
                    canEditFields && {
                      id: 'actions',
                      header: t('columns.actions'),
                      cellClassName: 'flex flex-wrap gap-1',
                      cell: (field, index) => (
                        <>
                          {byLabel
                            ? null
                            : moveButtons(
                                field.label,
                                index,
                                object.productFields.length,
                                (other) =>
                                  void run(
                                    reorderProductFields(accountIndex, {
                                      productFieldIdOne: field.id,
                                      productFieldIdTwo: object.productFields[other]!.id,
                                    }),
                                    t('messages.reordered'),
                                  ),
                              )}
                          {editAndDelete(
                            field.label,
                            () =>
                              setEditing({
                                kind: 'field',
                                object,
                                field: storedField(object, field),
                              }),
                            () => removeField(field),
                          )}
                        </>
                      ),
                    },
                  ]}
                />
              )}
            </section>
          );
        })}
      </section>

      <FactorsSection
        accountIndex={accountIndex}
        versionId={version.id}
        factors={factors}
        canEdit={canEditFields}
        remove={remove}
        onSaved={saved}
      />
      <NamedRangesSection
        accountIndex={accountIndex}
        versionId={version.id}
        ranges={ranges}
        canEdit={canEditFields}
        remove={remove}
        onSaved={saved}
      />

      <section aria-labelledby="formulas-heading" className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id="formulas-heading" className="text-lg font-semibold text-slate-900">
            {t('editor.formulas')}
          </h2>
          {canAddFormula ? (
            <Button onClick={() => setEditing({ kind: 'formula', formula: null })}>
              {t('actions.add_formula')}
            </Button>
          ) : null}
        </div>
        {formulas.length === 0 ? (
          <p className="text-sm text-slate-700">{t('editor.no_formulas')}</p>
        ) : (
          <DataTable
            caption={t('editor.formulas')}
            pad={cell}
            rows={formulas}
            rowKey={(formula) => formula.id}
            columns={[
              { id: 'group', header: t('columns.group'), cell: (formula) => formula.group },
              { id: 'name', header: t('columns.name'), cell: (formula) => formula.name },
              {
                id: 'expression',
                header: t('columns.expression'),
                cell: (formula) => <code className="break-all">{formula.expression}</code>,
              },
              {
                id: 'unit',
                header: t('columns.unit'),
                cell: (formula) => t(unitKey(formula.unit)),
              },
              {
                id: 'variable',
                header: t('columns.variable'),
                cell: (formula) =>
                  formula.variableName ? <code>{formula.variableName}</code> : '',
              },
              (canEditFormula || canDeleteFormula) && {
                id: 'actions',
                header: t('columns.actions'),
                cellClassName: 'flex flex-wrap gap-1',
                cell: (formula, index) => (
                  <>
                    {canEditFormula
                      ? moveButtons(
                          formula.name,
                          index,
                          formulas.length,
                          (other) =>
                            void run(
                              reorderPremiumFormulas(accountIndex, {
                                id1: formula.id,
                                id2: formulas[other]!.id,
                              }),
                              t('messages.reordered'),
                            ),
                        )
                      : null}
                    {editAndDelete(
                      formula.name,
                      canEditFormula ? () => setEditing({ kind: 'formula', formula }) : null,
                      canDeleteFormula ? () => removeFormula(formula) : null,
                    )}
                  </>
                ),
              },
            ]}
          />
        )}
      </section>

      <TestCaseSection
        accountIndex={accountIndex}
        versionId={version.id}
        canEdit={canEditFields}
        onSaved={saved}
      />

      {/* The editor has no tabs: the version's history is its last section. */}
      <HistorySection
        accountIndex={accountIndex}
        record={`insuranceservice/v1/product-versions/${version.id}`}
        labelOf={historyFields}
        actionKeys={['products:history_actions.']}
      />

      {editing?.kind === 'field' ? (
        <FieldDialog
          accountIndex={accountIndex}
          object={editing.object}
          field={editing.field}
          onClose={closeDialog(() => t('messages.field_saved'))}
        />
      ) : null}
      {editing?.kind === 'add-object' ? (
        <AddObjectDialog
          accountIndex={accountIndex}
          productVersionId={version.id}
          onClose={closeDialog((label: string) => t('objects.saved', { label }))}
        />
      ) : null}
      {editing?.kind === 'rename-object' ? (
        <RenameObjectDialog
          accountIndex={accountIndex}
          object={editing.object}
          onClose={closeDialog((label: string) => t('objects.saved', { label }))}
        />
      ) : null}
      {editing?.kind === 'formula' ? (
        <FormulaDialog
          accountIndex={accountIndex}
          productVersionId={version.id}
          formula={editing.formula}
          variables={variables}
          onClose={closeDialog(() => t('messages.formula_saved'))}
        />
      ) : null}
    </div>
  );
}
