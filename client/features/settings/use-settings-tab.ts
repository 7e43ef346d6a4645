import {
  useQueryClient,
  type FetchQueryOptions,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isAllowed } from '#common/permissions.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { apiErrorKey } from '#client/api/error-text.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { messageOfCode } from '#client/ui/form/messages.ts';
import { errorIssues } from '#common/contracts/error.ts';
import {
  useLoadedRecordEdit,
  type LoadedEditOptions,
  type VersionedRecord,
} from '#client/entities/record/use-record-edit.ts';

/** The account of the screen and whether it may save (the service checks every call anyway). */
export function useSettingsAccount(): { accountIndex: number; canEdit: boolean } {
  const { accountIndex = '0' } = useParams();
  const permissions = SessionActorContext.useSelector(
    (s) => s.context.accounts.find((a) => String(a.accountIndex) === accountIndex)?.permissions,
  );
  return {
    accountIndex: Number(accountIndex),
    canEdit: isAllowed(permissions ?? [], { anyOf: [['tenant-management.settings.update']] }),
  };
}

/** What the form says of a save that failed: the service's reason for a refused value. */
function saveFailureText(t: TFunction<['tenant_settings', 'errors']>, failure: unknown): string {
  console.error('settings save failed', failure);
  if (failure instanceof ApiError && failure.status === 400) {
    return t('save_refused', { reason: t(apiErrorKey(failure)) });
  }
  if (failure instanceof ApiError && failure.status === 403) return t('save_forbidden');
  return t('save_failed');
}

/**
 * The fields of the form a 400 names in its issues, with the form kit's translated message for
 * each code (`max_length`: "too long"), so that no raw validator text and no generic refusal
 * stands for a field the user can correct. Empty when an issue names no field of the form: then
 * the whole refusal is said above the form instead, so that nothing is lost.
 */
function fieldRefusals(failure: unknown, fields: readonly string[]): FieldErrors {
  if (!(failure instanceof ApiError) || failure.status !== 400) return {};
  const issues = errorIssues(failure.body);
  if (!issues.length || !issues.every((issue) => fields.includes(issue.path))) return {};
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[issue.path] ??= []).push(messageOfCode(issue.code));
  return errors;
}

/**
 * Reads a record through the cache (the query's own signal reaches the API client) for a flow
 * that loads it itself; the flow's signal, aborted when the form goes, cancels that read.
 */
async function fetchThroughCache<R, K extends QueryKey>(
  client: QueryClient,
  query: FetchQueryOptions<R, Error, R, K>,
  signal: AbortSignal,
): Promise<R> {
  const cancel = () => void client.cancelQueries({ queryKey: query.queryKey, exact: true });
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await client.fetchQuery(query);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/**
 * A settings tab that saves a versioned record (every tab: general, branding, the key/value tabs
 * as one record each, a custom schema) on `record-edit`: read from
 * the query cache, edited, checked, saved on top of the version read; a save somebody made
 * meanwhile is a 409 `version_conflict` carrying the record under `name`, shown as the conflict
 * (reload or keep mine) instead of being overwritten. The saved record goes into the cache.
 */
export function useSettingsEdit<
  R extends VersionedRecord,
  V,
  I,
  F extends string,
  K extends QueryKey,
>({
  query,
  name,
  onSaved,
  fields = [],
  ...options
}: Omit<LoadedEditOptions<R, V, I, F>, 'load' | 'conflictOf' | 'refusal' | 'onSaved'> & {
  query: FetchQueryOptions<R, Error, R, K>;
  /** The key of the record in the service's answers and in its 409. */
  name: string;
  /** What else takes the saved record (the shell's branding, the language cache). */
  onSaved?: (saved: R) => void;
  /** The form's fields by the names the service's issues use: their refusals show there. */
  fields?: readonly string[];
}) {
  const { t } = useTranslation(['tenant_settings', 'errors']);
  const client = useQueryClient();
  return useLoadedRecordEdit<R, V, I, F>({
    ...options,
    load: (signal) => fetchThroughCache(client, query, signal),
    conflictOf: (error) =>
      error instanceof ApiError && error.code === 'version_conflict'
        ? (((error.body as Record<string, unknown> | undefined)?.[name] as R | undefined) ?? null)
        : null,
    ...useSaveOutcome<R>({
      fieldErrors: (error) => {
        const errors = fieldRefusals(error, fields);
        return Object.keys(errors).length ? errors : null;
      },
      failure: (error) => saveFailureText(t, error),
      onSaved: (saved) => {
        client.setQueryData<R>(query.queryKey, saved);
        onSaved?.(saved);
      },
      savedMessage: () => t('saved'),
    }),
  });
}
