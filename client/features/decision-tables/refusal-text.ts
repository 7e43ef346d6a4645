import type { TFunction } from 'i18next';
import { ApiError } from '#client/api/fetch-json.ts';

/**
 * A refusal of the process manager as the screens say it: the translated reason, with the
 * service's own detail where it has one (which rule, which line of the file), so that nothing
 * the service said is lost.
 */
export function refusalText(t: TFunction<'decision_tables'>, error: unknown): string {
  if (!(error instanceof ApiError)) return t('errors.failed');
  const detail = error.message;
  if (error.status === 400 && error.code === 'invalid_dmn')
    return t('errors.invalid_dmn', { detail });
  if (error.status === 400) return t('errors.invalid_input', { detail });
  if (error.status === 409) return t('errors.duplicate');
  if (error.status === 403) return t('errors.forbidden');
  if (error.status === 404) return t('errors.table_not_found');
  return t('errors.failed');
}
