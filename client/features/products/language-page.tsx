import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { FileProblem } from '#client/api/product-extras-client.ts';
import type { Product } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import {
  addProductLanguage,
  downloadTranslations,
  updateProductLanguage,
  uploadTranslations,
  type ProductLanguage,
} from '#client/api/translations-client.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { SelectInput } from '#client/ui/form/fields.tsx';
import { requiredMessage } from '#client/ui/form/rules.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { useToast } from '#client/ui/toast.tsx';
import { allLoaded, loadStateOf, mapLoaded, retryFailed } from '#client/ui/load-state.ts';
import { DialogForm } from './dialog-form.tsx';
import { FileInput, FileProblemList, problemsOf } from './file-upload-parts.tsx';
import { saveFile } from '#client/ui/save-file.ts';
import {
  LinkButton,
  Loading,
  TableHead,
  useFailureMessage,
  productLoadTexts,
} from './page-parts.tsx';
import { RowButton } from '#client/ui/row-button.tsx';
import { useProductAbilities } from './use-product-abilities.ts';

/** Languages offered when adding one (ISO 639-1); the service takes any two-letter code. */
const LANGUAGE_CHOICES = ['de', 'en', 'pl', 'fr', 'it', 'es', 'nl', 'cs', 'da', 'sv'];

const cell = 'py-2 pr-4 align-top';

function useLanguageName() {
  const { i18n } = useTranslation('products');
  return (code: string) => {
    try {
      const name = new Intl.DisplayNames([i18n.language], { type: 'language' }).of(code);
      return name && name !== code ? `${name} (${code})` : code;
    } catch {
      return code;
    }
  };
}

function AddLanguageDialog({
  accountIndex,
  productSlug,
  existing,
  onClose,
}: {
  accountIndex: number;
  productSlug: string;
  existing: string[];
  onClose: (language: string | null) => void;
}) {
  const { t } = useTranslation('products');
  const languageName = useLanguageName();
  const [language, setLanguage] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const label = t('languages.language');
  const submit = () => {
    if (!language) {
      setErrors([requiredMessage(label)]);
      return false;
    }
    return addProductLanguage(accountIndex, { productSlug, language }).then(() => {
      onClose(language);
      return true;
    });
  };
  return (
    <DialogForm
      title={t('languages.add')}
      submitLabel={t('actions.add')}
      submit={submit}
      onCancel={() => onClose(null)}
    >
      <SelectInput
        label={label}
        value={language}
        onChange={setLanguage}
        required
        errors={errors}
        options={LANGUAGE_CHOICES.filter((code) => !existing.includes(code)).map((code) => ({
          value: code,
          label: languageName(code),
        }))}
      />
    </DialogForm>
  );
}

function UploadDialog({
  accountIndex,
  productSlug,
  language,
  onClose,
}: {
  accountIndex: number;
  productSlug: string;
  language: string;
  onClose: (count: number | null) => void;
}) {
  const { t } = useTranslation('products');
  const languageName = useLanguageName();
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<FileProblem[] | null>(null);
  const [missing, setMissing] = useState(false);
  const submit = () => {
    setProblems(null);
    setMissing(!file);
    if (!file) return false;
    return uploadTranslations(accountIndex, productSlug, language, file).then(
      (translations) => {
        onClose(translations.length);
        return true;
      },
      (error: unknown) => {
        setProblems(problemsOf(error));
        throw error;
      },
    );
  };
  return (
    <DialogForm
      title={t('languages.upload_title', { language: languageName(language) })}
      submitLabel={t('languages.upload')}
      submit={submit}
      onCancel={() => onClose(null)}
    >
      <FileInput
        label={t('languages.file')}
        hint={t('languages.file_hint')}
        accept=".json,.csv,application/json,text/csv"
        onChange={(chosen) => {
          setFile(chosen);
          setProblems(null);
        }}
      />
      {missing ? <Alert tone="danger">{t('factors.choose_file')}</Alert> : null}
      {problems ? <FileProblemList problems={problems} intro={t('factors.invalid')} /> : null}
    </DialogForm>
  );
}

/**
 * The languages of a product (spec route /management/product/{productId}/language): add one,
 * upload its translations (JSON or CSV, each problem with its line), download them, and activate
 * a language once it has translations.
 */
export default function LanguagePage() {
  const { t } = useTranslation('products');
  const { productId = '' } = useParams();
  const toast = useToast();
  const failureMessage = useFailureMessage();
  const languageName = useLanguageName();
  const { accountIndex, canCreateLanguage, canUpdateTranslations } = useProductAbilities();
  const [dialog, setDialog] = useState<
    { kind: 'add' } | { kind: 'upload'; language: string } | null
  >(null);
  const queryClient = useQueryClient();
  const productQuery = useQuery(productQueries.detail(accountIndex, productId));
  const slug = productQuery.data?.slug ?? '';
  // The languages are the product's by its slug, so they are asked for once the product is known.
  const languagesQuery = useQuery({
    ...productQueries.languages(accountIndex, slug),
    enabled: productQuery.data !== undefined,
  });
  const state = mapLoaded(
    allLoaded<[Product, ProductLanguage[]]>([
      loadStateOf(productQuery),
      loadStateOf(languagesQuery),
    ]),
    ([product, languages]) => ({ product, languages }),
  );
  const retry = () => retryFailed([productQuery, languagesQuery]);
  const refresh = () =>
    void queryClient.invalidateQueries({
      queryKey: productQueries.languages(accountIndex, slug).queryKey,
    });
  const title =
    state.kind === 'ready'
      ? t('languages.title', { product: state.value.product.name })
      : t('languages.title_plain');
  usePageTitle(title);

  if (state.kind === 'loading') return <Loading />;
  if (state.kind === 'failed')
    return <LoadProblem error={state.error} {...productLoadTexts(t)} onRetry={retry} />;
  const { product, languages } = state.value;

  const toggle = (entry: ProductLanguage) =>
    void updateProductLanguage(accountIndex, entry.id, {
      isActive: !entry.isActive,
      version: entry.version,
    }).then(
      () => {
        toast({
          message: t('languages.changed', { language: languageName(entry.language) }),
          tone: 'success',
        });
        refresh();
      },
      (error: unknown) => {
        toast({ message: failureMessage(error), tone: 'danger' });
        refresh();
      },
    );

  const download = (entry: ProductLanguage, format: 'json' | 'csv') =>
    void downloadTranslations(accountIndex, product.slug, entry.language, format).then(
      ({ blob, filename }) => {
        const name = filename ?? `${product.slug}-${entry.language}.${format}`;
        saveFile(blob, name);
        toast({ message: t('languages.downloaded', { filename: name }), tone: 'success' });
      },
      (error: unknown) => toast({ message: failureMessage(error), tone: 'danger' }),
    );

  const statusText = (status: ProductLanguage['translationStatus']) =>
    t(`languages.status_${status}` as 'languages.status_none');

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <LinkButton to={`/u/${accountIndex}/management/product/${product.id}`}>
          {t('actions.back_to_product')}
        </LinkButton>
      </div>
      {canUpdateTranslations ? null : <p className="text-slate-700">{t('languages.read_only')}</p>}
      <section aria-labelledby="languages-heading" className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id="languages-heading" className="text-lg font-semibold text-slate-900">
            {t('languages.table')}
          </h2>
          {canCreateLanguage ? (
            <Button onClick={() => setDialog({ kind: 'add' })}>{t('languages.add')}</Button>
          ) : null}
        </div>
        {languages.length === 0 ? (
          <p className="text-sm text-slate-700">{t('languages.empty')}</p>
        ) : (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('languages.table')}</caption>
            <TableHead
              columns={[
                t('languages.language'),
                t('languages.status'),
                t('languages.count'),
                t('languages.active'),
                t('languages.updated'),
                t('columns.actions'),
              ]}
            />
            <tbody>
              {languages.map((entry) => {
                const name = languageName(entry.language);
                return (
                  <tr key={entry.id} className="border-b border-slate-200">
                    <td className={cell}>{name}</td>
                    <td className={cell}>{statusText(entry.translationStatus)}</td>
                    <td className={cell}>{entry.translationCount}</td>
                    <td className={cell}>{entry.isActive ? t('yes') : t('no')}</td>
                    <td className={cell}>{formatDateTime(entry.updatedAt)}</td>
                    <td className={`${cell} flex flex-wrap gap-1`}>
                      {canUpdateTranslations ? (
                        <>
                          <RowButton
                            label={
                              entry.isActive ? t('languages.deactivate') : t('languages.activate')
                            }
                            name={t(
                              entry.isActive
                                ? 'languages.deactivate_named'
                                : 'languages.activate_named',
                              { language: name },
                            )}
                            onClick={() => toggle(entry)}
                          />
                          <RowButton
                            label={t('languages.upload')}
                            name={t('languages.upload_named', { language: name })}
                            onClick={() => setDialog({ kind: 'upload', language: entry.language })}
                          />
                        </>
                      ) : null}
                      {(['json', 'csv'] as const).map((format) => (
                        <RowButton
                          key={format}
                          label={t(
                            format === 'json'
                              ? 'languages.download_json'
                              : 'languages.download_csv',
                          )}
                          name={t('languages.download_named', {
                            language: name,
                            format: format.toUpperCase(),
                          })}
                          onClick={() => download(entry, format)}
                        />
                      ))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {dialog?.kind === 'add' ? (
        <AddLanguageDialog
          accountIndex={accountIndex}
          productSlug={product.slug}
          existing={languages.map((l) => l.language)}
          onClose={(language) => {
            setDialog(null);
            if (!language) return;
            toast({
              message: t('languages.added', { language: languageName(language) }),
              tone: 'success',
            });
            refresh();
          }}
        />
      ) : null}
      {dialog?.kind === 'upload' ? (
        <UploadDialog
          accountIndex={accountIndex}
          productSlug={product.slug}
          language={dialog.language}
          onClose={(count) => {
            const language = languageName(dialog.language);
            setDialog(null);
            if (count === null) return;
            toast({ message: t('languages.uploaded', { count, language }), tone: 'success' });
            refresh();
          }}
        />
      ) : null}
    </div>
  );
}
