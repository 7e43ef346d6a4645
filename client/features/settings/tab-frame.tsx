import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import type { ConflictRow } from '#client/ui/conflict-rows.ts';
import { ConflictPanel } from '#client/entities/record/conflict-panel.tsx';
import type { VersionedRecord } from '#client/entities/record/use-record-edit.ts';

/** Loading, load failure (with retry) and the form of one settings tab. */
export function TabFrame({
  phase,
  retry,
  children,
}: {
  phase: 'loading' | 'failed' | 'ready';
  retry: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation(['tenant_settings', 'common']);
  if (phase === 'loading') return <Spinner label={t('common:status.loading')} />;
  if (phase === 'failed') {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert tone="danger">{t('load_failed')}</Alert>
        <Button variant="secondary" onClick={retry}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  return <>{children}</>;
}

/** A settings form: its fields, the save error and the save button. */
export function SettingsForm({
  title,
  intro,
  onSubmit,
  saving,
  error,
  canEdit,
  children,
}: {
  title: string;
  intro?: string;
  onSubmit: () => void;
  saving: boolean;
  error: string | null;
  canEdit: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('tenant_settings');
  return (
    <form
      noValidate
      aria-label={title}
      className="flex max-w-2xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
      {children}
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {canEdit ? (
        <div>
          <Button type="submit" disabled={saving}>
            {saving ? t('saving') : t('save')}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-600">{t('read_only')}</p>
      )}
    </form>
  );
}

/**
 * A versioned tab's conflict: another admin saved the tab since it was read. The user loads
 * what they saved (dropping the input) or saves the input over it knowingly.
 */
function SettingsConflict<F extends string, R extends VersionedRecord>({
  conflict,
  label,
  shown,
  busy,
  onLoadSaved,
  onOverwrite,
}: {
  conflict: { saved: R; rows: readonly ConflictRow<F>[] } | null;
  label: (field: F) => string;
  shown: (field: F, value: string) => string;
  busy: boolean;
  onLoadSaved: (saved: R) => void;
  onOverwrite: () => void;
}) {
  const { t } = useTranslation('tenant_settings');
  if (!conflict) return null;
  return (
    <ConflictPanel
      translate={(key, values) => t(key, values)}
      conflict={conflict}
      label={label}
      shown={(field, value) => (value === '' ? t('conflict.empty') : shown(field, value))}
      busy={busy}
      onLoadSaved={onLoadSaved}
      onOverwrite={onOverwrite}
    />
  );
}

/**
 * A versioned tab (`useSettingsEdit`): loading or its failure, then the form with the conflict
 * above its fields; a save failure without a reason of its own shows the generic text.
 */
export function VersionedSettingsForm<F extends string, R extends VersionedRecord>({
  form,
  title,
  intro,
  canEdit,
  label,
  shown,
  children,
}: {
  form: {
    phase: 'loading' | 'failed' | 'ready';
    retry: () => void;
    busy: boolean;
    failure: string | null;
    save: () => void;
    conflict: { saved: R; rows: readonly ConflictRow<F>[] } | null;
    loadSaved: (saved: R) => void;
    overwrite: () => void;
  };
  title: string;
  intro: string;
  canEdit: boolean;
  label: (field: F) => string;
  shown: (field: F, value: string) => string;
  children: ReactNode;
}) {
  const { t } = useTranslation('tenant_settings');
  return (
    <TabFrame phase={form.phase} retry={form.retry}>
      <SettingsForm
        title={title}
        intro={intro}
        saving={form.busy}
        error={form.failure === null ? null : form.failure || t('save_failed')}
        canEdit={canEdit}
        onSubmit={form.save}
      >
        <SettingsConflict
          conflict={form.conflict}
          label={label}
          shown={shown}
          busy={form.busy}
          onLoadSaved={form.loadSaved}
          onOverwrite={form.overwrite}
        />
        {children}
      </SettingsForm>
    </TabFrame>
  );
}
