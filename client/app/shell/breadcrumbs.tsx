import { useTranslation } from 'react-i18next';
import { Link, useMatches, useParams } from 'react-router';
import type { ScreenRoute, ShellLabelKey } from '../route-table.ts';

type Crumb = { path: string; label: ShellLabelKey | 'header.help' };
type CrumbHandle = { crumb?: Crumb['label']; parent?: ScreenRoute } | undefined;

export function Breadcrumbs() {
  const { t } = useTranslation('shell');
  const { accountIndex } = useParams();
  // A detail screen's route is flat (admin/roles/:roleId); its parent screen comes first.
  const crumbs = useMatches().flatMap((match): Crumb[] => {
    const handle = match.handle as CrumbHandle;
    if (!handle?.crumb) return [];
    const own = { path: match.pathname, label: handle.crumb };
    if (!handle.parent) return [own];
    return [{ path: `/u/${accountIndex}/${handle.parent.path}`, label: handle.parent.label }, own];
  });
  return (
    <nav aria-label={t('breadcrumbs.label')} className="mb-4 text-sm text-slate-700 print:hidden">
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
