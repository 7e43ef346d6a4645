import { useTranslation } from 'react-i18next';
import { usePageTitle } from '#client/ui/page-title.ts';

// Routed ahead of its screen (issue 17): the screen is built in its own branch and replaces this.
export default function WorkflowsPage() {
  const { t } = useTranslation('shell');
  usePageTitle(t('menu.workflows'));
  return <h1 className="text-2xl font-semibold text-slate-900">{t('menu.workflows')}</h1>;
}
