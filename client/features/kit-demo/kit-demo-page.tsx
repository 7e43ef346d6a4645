import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { ConfirmProvider, useConfirm } from '#client/ui/confirm-dialog.tsx';
import { CustomFormFields, type FormValues } from '#client/ui/form/custom-form-fields.tsx';
import {
  buildCustomSchema,
  validateForm,
  type CustomField,
  type ErrorDisplay,
  type FieldErrors,
} from '#client/ui/form/custom-schema.ts';
import { HashTabs } from '#client/ui/hash-tabs.tsx';
import { InfiniteTable, type TableColumn } from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { TimeFilter } from '#client/ui/time-filter.tsx';
import { ALL_DATES, toRange, type TimeFilterValue } from '#client/ui/time-filter-range.ts';
import { ToastProvider, useToast } from '#client/ui/toast.tsx';
import { createDemoLoader, type DemoRow } from './demo-rows.ts';

/**
 * `/forms`: the spec's demo page, here a showcase of the shared kit. `?failPage=N` makes page N
 * of the table fail once (for the retry button); `?stopLimit=N` stops automatic loading after N
 * pages;
 * `?delay=ms` changes the fake network delay (tests scroll through many pages).
 */
export default function KitDemoPage() {
  const { t } = useTranslation('kit');
  usePageTitle(t('title'));
  return (
    <ToastProvider>
      <ConfirmProvider>
        <main className="mx-auto flex max-w-5xl flex-col gap-10 p-6">
          <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
          <TableSection />
          <FormSection />
          <TabsSection />
          <DialogSection />
        </main>
      </ConfirmProvider>
    </ToastProvider>
  );
}

function positiveInt(text: string | null): number | undefined {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

function TableSection() {
  const { t, i18n } = useTranslation('kit');
  const [params] = useSearchParams();
  const failPage = positiveInt(params.get('failPage'));
  const stopLimit = positiveInt(params.get('stopLimit')) ?? null;
  const delayMs = positiveInt(params.get('delay'));
  const loadPage = useMemo(
    () =>
      createDemoLoader({
        ...(failPage === undefined ? {} : { failPage }),
        ...(delayMs === undefined ? {} : { delayMs }),
      }),
    [failPage, delayMs],
  );
  const [selected, setSelected] = useState(0);
  const money = useMemo(
    () => new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'EUR' }),
    [i18n.language],
  );
  const columns: TableColumn<DemoRow>[] = [
    { id: 'id', header: t('table.policy'), cell: (row) => row.id, width: '9rem' },
    {
      id: 'holder',
      header: t('table.holder'),
      cell: (row) => row.holder,
      sortable: true,
      filterable: true,
      width: '2fr',
    },
    {
      id: 'city',
      header: t('table.city'),
      cell: (row) => row.city,
      sortable: true,
      filterable: true,
    },
    {
      id: 'premium',
      header: t('table.premium'),
      cell: (row) => money.format(row.premium),
      sortable: true,
    },
  ];
  return (
    <section aria-labelledby="kit-table" className="flex flex-col gap-3">
      <h2 id="kit-table" className="text-xl font-semibold text-slate-900">
        {t('table.heading')}
      </h2>
      <p className="text-sm text-slate-700">{t('table.selected', { count: selected })}</p>
      <InfiniteTable
        label={t('table.label')}
        columns={columns}
        loadPage={loadPage}
        rowKey={(row) => row.id}
        rowLabel={(row) => t('table.select', { id: row.id })}
        onSelectionChange={(keys) => setSelected(keys.size)}
        stopLimit={stopLimit}
        footer
      />
    </section>
  );
}

const sampleSchema: CustomField[] = [
  { name: 'firstName', label: 'First name', type: 'string', isRequired: true, maxLength: 50 },
  { name: 'email', label: 'E-mail', type: 'email', isRequired: true },
  { name: 'phone', label: 'Phone', type: 'phone', isRequired: false },
  { name: 'age', label: 'Age', type: 'number', isRequired: true, minimum: 18, maximum: 99 },
  { name: 'birthday', label: 'Date of birth', type: 'date', isRequired: false },
  {
    name: 'colour',
    label: 'Colour',
    type: 'string',
    isRequired: false,
    options: [
      { value: 'blue', label: 'Blue' },
      { value: 'green', label: 'Green' },
    ],
  },
  { name: 'notes', label: 'Notes', type: 'string', isRequired: false, multiline: true },
  { name: 'consent', label: 'I accept the terms', type: 'boolean', isRequired: true },
];

function FormSection() {
  const { t } = useTranslation('kit');
  const toast = useToast();
  const { schema, fields } = useMemo(() => buildCustomSchema(sampleSchema), []);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [display, setDisplay] = useState<ErrorDisplay>('all');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(schema, values, display);
    setErrors(result.errors);
    if (result.success) {
      setSubmitted(JSON.stringify(result.output));
      toast({ message: t('form.saved') });
    }
  };
  return (
    <section aria-labelledby="kit-form" className="flex flex-col gap-3">
      <h2 id="kit-form" className="text-xl font-semibold text-slate-900">
        {t('form.heading')}
      </h2>
      <form noValidate onSubmit={submit} className="grid max-w-xl gap-4">
        <CustomFormFields
          fields={fields}
          values={values}
          errors={errors}
          onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
        />
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="size-4"
            checked={display === 'first'}
            onChange={(event) => setDisplay(event.target.checked ? 'first' : 'all')}
          />
          {t('form.first_error_only')}
        </label>
        <div>
          <Button type="submit">{t('form.submit')}</Button>
        </div>
      </form>
      {submitted ? (
        <pre className="overflow-auto rounded bg-slate-100 p-3 text-xs" data-testid="form-output">
          {submitted}
        </pre>
      ) : null}
    </section>
  );
}

function TabsSection() {
  const { t } = useTranslation('kit');
  const [time, setTime] = useState<TimeFilterValue>(ALL_DATES);
  const range = toRange(time);
  return (
    <section aria-labelledby="kit-tabs" className="flex flex-col gap-3">
      <h2 id="kit-tabs" className="text-xl font-semibold text-slate-900">
        {t('tabs.heading')}
      </h2>
      <HashTabs
        id="tab"
        label={t('tabs.label')}
        tabs={[
          { id: 'overview', label: t('tabs.overview'), content: <p>{t('tabs.overview_text')}</p> },
          { id: 'details', label: t('tabs.details'), content: <p>{t('tabs.details_text')}</p> },
          {
            id: 'documents',
            label: t('tabs.documents'),
            content: (
              <div className="flex flex-col gap-3">
                <TimeFilter value={time} onChange={setTime} />
                <p className="text-sm text-slate-700" data-testid="time-range">
                  {t('tabs.range', { from: range.from ?? '–', to: range.to ?? '–' })}
                </p>
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}

function DialogSection() {
  const { t } = useTranslation('kit');
  const confirm = useConfirm();
  const toast = useToast();
  const [showAlert, setShowAlert] = useState(true);
  return (
    <section aria-labelledby="kit-dialogs" className="flex flex-col gap-3">
      <h2 id="kit-dialogs" className="text-xl font-semibold text-slate-900">
        {t('dialogs.heading')}
      </h2>
      {showAlert ? (
        <AlertBar tone="info" onDismiss={() => setShowAlert(false)}>
          {t('dialogs.alert')}
        </AlertBar>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button
          onClick={async () => {
            const done = await confirm({
              title: t('dialogs.archive_title'),
              message: t('dialogs.archive_message'),
              action: () => new Promise((resolve) => setTimeout(resolve, 300)),
            });
            if (done) toast({ message: t('dialogs.archived') });
          }}
        >
          {t('dialogs.archive')}
        </Button>
        <Button
          variant="danger"
          onClick={() =>
            void confirm({
              title: t('dialogs.delete_title'),
              message: t('dialogs.delete_message'),
              tone: 'danger',
              confirmLabel: t('dialogs.delete'),
              action: async () => {
                await new Promise((resolve) => setTimeout(resolve, 200));
                throw new Error(t('dialogs.locked'));
              },
            })
          }
        >
          {t('dialogs.delete')}
        </Button>
      </div>
    </section>
  );
}
