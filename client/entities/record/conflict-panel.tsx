import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#client/ui/button.tsx';
import { ChangesTable } from '#client/ui/changes-table.tsx';
import type { ConflictRow } from '#client/ui/conflict-rows.ts';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { personOf, usePersonNames, useRouteAccount } from '#client/entities/person/person-name.ts';

/** The panel's keys in the caller's namespace (`customers:conflict.title`, `leads:conflict.title`). */
export type ConflictKey =
  | 'conflict.title'
  | 'conflict.message'
  | 'conflict.caption'
  | 'conflict.field'
  | 'conflict.saved'
  | 'conflict.mine'
  | 'conflict.no_field_changes'
  | 'conflict.load_saved'
  | 'conflict.overwrite'
  | 'conflict.merge';

/**
 * The edit conflict of a form that saves on top of the version it loaded (a 409
 * `version_conflict`): who saved meanwhile, the fields they changed (saved value beside this
 * user's input), and the two ways on: load the saved data, or save this input over it knowingly.
 * Takes the focus when it appears, and again for a second refusal.
 */
export function ConflictPanel<F extends string, R extends SavedRecord>(
  props: ConflictPanelProps<F, R>,
) {
  // A new refusal is a new panel, so that it takes the focus again.
  const { saved } = props.conflict;
  return <Panel key={`${saved.version}-${saved.updatedAt}`} {...props} />;
}

/**
 * The record as saved by the other user: who saved it (the code, and the name where the service
 * tells it), when, and its version.
 */
interface SavedRecord {
  version: number;
  updatedBy: string;
  updatedByName?: string | null;
  updatedAt: string;
}

interface ConflictPanelProps<F extends string, R extends SavedRecord> {
  /** `t` of the caller's namespace, which holds the `conflict.*` texts (so `ui` stays small). */
  translate: (key: ConflictKey, values?: Record<string, string>) => string;
  conflict: { saved: R; rows: readonly ConflictRow<F>[] };
  label: (field: F) => string;
  shown: (field: F, value: string) => string;
  busy: boolean;
  onLoadSaved: (saved: R) => void;
  /** Saves this user's input again, on top of the saved version. */
  onOverwrite: (saved: R) => void;
  /** Takes the other save's fields this user left alone, keeps this user's changes. */
  onMerge?: () => void;
  testIdPrefix?: string;
}

function Panel<F extends string, R extends SavedRecord>({
  translate,
  conflict: { saved, rows },
  label,
  shown,
  busy,
  onLoadSaved,
  onOverwrite,
  onMerge,
  testIdPrefix = 'conflict',
}: ConflictPanelProps<F, R>) {
  const ref = useRef<HTMLDivElement>(null);
  const { t } = useTranslation('ui');
  const nameOf = usePersonNames();
  const account = useRouteAccount();
  const at = formatDateTime(saved.updatedAt);
  const self = personOf(saved.updatedBy, account).kind === 'self';
  // The newer version is this user's own when they saved in another tab (or window): the banner
  // says so rather than naming them to themselves. Another user is named by the name the
  // service sent; a code never shows.
  const title = self ? t('conflict.self_title') : translate('conflict.title');
  const message = self
    ? t('conflict.self', { at })
    : translate('conflict.message', {
        by: saved.updatedByName || nameOf(saved.updatedBy).label,
        at,
      });
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-label={title}
      className="flex flex-col gap-3 rounded-md border border-amber-400 bg-amber-50 p-4"
    >
      <h3 className="font-semibold text-amber-900">{title}</h3>
      <p className="text-sm text-slate-800" data-testid={`${testIdPrefix}-message`}>
        {message}
      </p>
      {rows.length ? (
        <ChangesTable
          caption={translate('conflict.caption')}
          headers={{
            field: translate('conflict.field'),
            before: translate('conflict.saved'),
            after: translate('conflict.mine'),
          }}
          testIdPrefix={testIdPrefix}
          rows={rows.map((row) => ({
            id: row.field,
            label: label(row.field),
            before: shown(row.field, row.saved),
            after: shown(row.field, row.mine),
          }))}
        />
      ) : (
        <p className="text-sm text-slate-800">{translate('conflict.no_field_changes')}</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={busy} onClick={() => onLoadSaved(saved)}>
          {translate('conflict.load_saved')}
        </Button>
        {onMerge ? (
          <Button variant="secondary" disabled={busy} onClick={onMerge}>
            {translate('conflict.merge')}
          </Button>
        ) : null}
        <Button variant="danger" disabled={busy} onClick={() => onOverwrite(saved)}>
          {translate('conflict.overwrite')}
        </Button>
      </div>
    </div>
  );
}
