import { useTranslation } from 'react-i18next';
import { Link, useMatches, useParams } from 'react-router';
import type { ShellLabelKey } from '../route-table.ts';

export function Breadcrumbs() {
  const { t } = useTranslation('shell');
  const { accountIndex } = useParams();
  const crumbs = useMatches()
    .map((match) => ({
      path: match.pathname,
      label: (match.handle as { crumb?: ShellLabelKey | 'header.help' } | undefined)?.crumb,
    }))
    .filter((c): c is { path: string; label: ShellLabelKey | 'header.help' } => !!c.label);
  return (
    <nav aria-label={t('breadcrumbs.label')} className="mb-4 text-sm text-slate-700">
      <ol className="flex flex-wrap items-center gap-2">
        <li>
          <Link className="underline" to={`/u/${accountIndex}`}>
            {t('breadcrumbs.home')}
          </Link>
        </li>
        {crumbs.map((crumb, i) => (
          <li key={crumb.path} className="flex items-center gap-2">
            <span aria-hidden="true">/</span>
            {i === crumbs.length - 1 ? (
              <span aria-current="page">{t(crumb.label)}</span>
            ) : (
              <Link className="underline" to={crumb.path}>
                {t(crumb.label)}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
