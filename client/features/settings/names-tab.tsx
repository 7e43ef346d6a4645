import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { ApiError } from '#client/api/fetch-json.ts';
import { apiErrorKey } from '#client/api/error-text.ts';
import {
  listNamed,
  saveNameLabels,
  type NamedKind,
  type NamedRecord,
} from '#client/api/name-labels-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { TextInput } from '#client/ui/form/fields.tsx';
import { messageOfCode } from '#client/ui/form/messages.ts';
import { errorIssues } from '#common/contracts/error.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import {
  LABEL_LANGUAGES,
  LABEL_MAX_LENGTH,
  NameLabelsSchema,
  storedLabels,
  type NameLabels,
} from '#common/name-labels.ts';
import { useSettingsAccount } from './use-settings-tab.ts';

const KINDS: readonly NamedKind[] = ['claim-statuses', 'lead-statuses', 'claim-partner-roles'];
const kindKey = (kind: NamedKind) =>
  `names.kinds.${kind.replace(/-/g, '_')}` as 'names.kinds.claim_statuses';

/**
 * The translations of the tenant's own names (issue 15 point 16, issue 16): per claim status,
 * lead status and claim partner role, one text per language. Each name saves on its own, on top
 * of the labels it was loaded with, so a translation someone saved meanwhile is shown, not
 * overwritten. The limit is the shared rule the services check.
 */
export function NamesTab() {
  const { t } = useTranslation('tenant_settings');
  return (
    <div className="flex flex-col gap-8">
      <p className="text-sm text-slate-700">{t('names.intro')}</p>
      {KINDS.map((kind) => (
        <section key={kind} aria-labelledby={`names-${kind}`} className="flex flex-col gap-3">
          <h2 id={`names-${kind}`} className="text-lg font-semibold text-slate-900">
            {t(kindKey(kind))}
          </h2>
          <KindNames kind={kind} />
        </section>
      ))}
    </div>
  );
}

function KindNames({ kind }: { kind: NamedKind }) {
  const { t } = useTranslation('tenant_settings');
  const { accountIndex, canEdit } = useSettingsAccount();
  const query = useQuery({
    queryKey: ['account', accountIndex, 'name-labels', kind],
    queryFn: ({ signal }) => listNamed(accountIndex, kind, signal),
  });
  const state = loadStateOf(query);
  if (state.kind === 'loading') return <Spinner label={t('names.loading')} />;
  if (state.kind === 'failed') {
    return (
      <AlertBar tone="danger" dismissible={false}>
        {t('names.load_failed')}
      </AlertBar>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {state.value.map((record) => (
        <NameForm
          key={record.slug}
          kind={kind}
          record={record}
          accountIndex={accountIndex}
          canEdit={canEdit}
        />
      ))}
    </div>
  );
}

function NameForm({
  kind,
  record,
  accountIndex,
  canEdit,
}: {
  kind: NamedKind;
  record: NamedRecord;
  accountIndex: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation(['tenant_settings', 'errors']);
  const toast = useToast();
  const [basedOn, setBasedOn] = useState<NameLabels>(record.labels);
  const [values, setValues] = useState<NameLabels>(record.labels);
  const [errors, setErrors] = useState<Partial<Record<string, string[]>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The languages a 400 names, each with its message; null when it names anything else. */
  const languageRefusals = (error: ApiError): Partial<Record<string, string[]>> | null => {
    const issues = errorIssues(error.body);
    const languages: readonly string[] = LABEL_LANGUAGES;
    if (!issues.length || !issues.every((issue) => languages.includes(issue.path))) return null;
    return Object.fromEntries(
      issues.map((issue) => [
        issue.path,
        [
          issue.code === 'max_length'
            ? t('names.too_long', { max: LABEL_MAX_LENGTH })
            : messageOfCode(issue.code),
        ],
      ]),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !canEdit) return;
    // The services' rule, checked before sending: the same limit, said in the user's language.
    const checked = v.safeParse(NameLabelsSchema, values);
    if (!checked.success) {
      const next: Partial<Record<string, string[]>> = {};
      for (const issue of checked.issues) {
        const language = issue.path?.[0]?.key;
        if (typeof language === 'string') {
          next[language] = [t('names.too_long', { max: LABEL_MAX_LENGTH })];
        }
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setProblem(null);
    setBusy(true);
    try {
      const saved = await saveNameLabels(accountIndex, kind, record.slug, {
        ...checked.output,
        basedOn,
      });
      setBasedOn(saved.labels);
      setValues(saved.labels);
      toast({ message: t('names.saved', { name: record.name }), tone: 'success' });
    } catch (error) {
      const current = (error as ApiError | null)?.body as { current?: NamedRecord } | undefined;
      if (error instanceof ApiError && error.code === 'version_conflict' && current?.current) {
        // Someone saved other texts meanwhile: theirs are shown, to be changed again if need be.
        setBasedOn(current.current.labels);
        setValues(current.current.labels);
        setProblem(t('names.conflict'));
      } else if (error instanceof ApiError && error.status === 400) {
        // When the service named the languages, it is said at their fields.
        const named = languageRefusals(error);
        if (named) setErrors(named);
        else setProblem(t('names.refused', { message: t(apiErrorKey(error)) }));
      } else {
        if (!(error instanceof ApiError)) console.error('name labels save failed', error);
        setProblem(t(apiErrorKey(error)));
      }
    } finally {
      setBusy(false);
    }
  };

  const dirty = JSON.stringify(storedLabels(values)) !== JSON.stringify(storedLabels(basedOn));
  return (
    <form
      noValidate
      aria-label={t('names.form_label', { name: record.name })}
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3"
      aria-busy={busy}
    >
      <p className="font-medium text-slate-900">
        {record.name} <span className="font-mono text-xs text-slate-600">{record.slug}</span>
      </p>
      <div className="grid gap-3 md:grid-cols-3">
        {LABEL_LANGUAGES.map((language) => (
          <TextInput
            key={language}
            label={t(`names.language.${language}`)}
            name={`${record.slug}-${language}`}
            value={values[language] ?? ''}
            onChange={(text) => setValues((current) => ({ ...current, [language]: text }))}
            errors={errors[language]}
            maxLength={LABEL_MAX_LENGTH}
            readOnly={!canEdit}
          />
        ))}
      </div>
      {problem ? (
        <AlertBar tone="danger" onDismiss={() => setProblem(null)}>
          {problem}
        </AlertBar>
      ) : null}
      {canEdit ? (
        <div>
          <Button type="submit" disabled={busy || !dirty}>
            {t('names.save', { name: record.name })}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
