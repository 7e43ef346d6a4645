import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageTitle } from '#client/ui/page-title.ts';

const topics = {
  documentation: 'documentation',
  'release-notes': 'release_notes',
  support: 'support',
  imprint: 'imprint',
  privacy: 'privacy',
} as const;

const SUPPORT_EMAIL = 'support@example.com';

/**
 * The help menu's pages. Their real content (handbook, release-note documents, legal texts) is
 * the operator's; until it exists each topic is a real page, so no entry of the menu is dead.
 */
export default function HelpPage() {
  const { t } = useTranslation('help');
  const { topic = '' } = useParams();
  const key = topics[topic as keyof typeof topics];
  usePageTitle(key ? t(`${key}.title`) : t('unknown_topic'));
  if (!key) {
    return <p className="text-slate-800">{t('unknown_topic')}</p>;
  }
  return (
    <article className="flex max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-bold text-slate-900">{t(`${key}.title`)}</h1>
      <p className="text-slate-800">{t(`${key}.body`)}</p>
      {key === 'support' ? (
        <p>
          <a className="text-blue-800 underline" href={`mailto:${SUPPORT_EMAIL}`}>
            {t('support.email')}
          </a>
        </p>
      ) : null}
    </article>
  );
}
