import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { isStorageAddress } from '#client/api/app-config.ts';
import { signedS3Url } from '#client/api/documents-client.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { lastUsedAccount, rememberedAccount } from '#client/api/last-account.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { AuthCard } from '#client/ui/auth-card.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { DOWNLOAD_WINDOW_CLOSE_DELAY_MS } from '#common/claim-documents.ts';

const PREFIX = '/download/';

/** The storage key of the path: encoded in it (`a%2Fb.pdf`), or with plain slashes. */
function keyOf(pathname: string): string | null {
  const encoded = pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length) : '';
  try {
    const key = decodeURIComponent(encoded);
    return key ? key : null;
  } catch {
    return null;
  }
}

type Status = 'loading' | 'started' | 'failed';

/**
 * /download/{s3Key} (spec, shell): asks the document service of the last used account for a
 * signed address of the key, makes sure it points at the configured storage, goes there (the
 * file is an attachment, so the browser saves it and the page stays), and after 2 seconds tries
 * to close the window (which only works when a script opened it). No navigation bar, header or
 * footer. Not signed in: the sign-in page, which comes back here with the key still encoded.
 */
export default function DownloadPage() {
  const { t } = useTranslation(['documents', 'common']);
  usePageTitle(t('download.title'));
  const { pathname, search } = useLocation();
  const held = SessionActorContext.useSelector((s) => s.context.accounts).map(
    (a) => a.accountIndex,
  );
  const current = SessionActorContext.useSelector((s) => s.context.currentAccountIndex);
  const accountIndex = lastUsedAccount(held, current, rememberedAccount());
  const key = keyOf(pathname);
  const [status, setStatus] = useState<Status>(key === null ? 'failed' : 'loading');

  useEffect(() => {
    if (accountIndex === undefined || key === null) return;
    const controller = new AbortController();
    let closeTimer: ReturnType<typeof setTimeout> | undefined;
    setStatus('loading');
    signedS3Url(accountIndex, key, controller.signal)
      .then(({ url }) => {
        // An address from anywhere else would make this page an open redirect.
        if (!isStorageAddress(url)) throw new Error('signed address outside the storage');
        window.location.assign(url);
        setStatus('started');
        closeTimer = setTimeout(() => window.close(), DOWNLOAD_WINDOW_CLOSE_DELAY_MS);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('download failed', error);
        setStatus('failed');
      });
    return () => {
      controller.abort();
      clearTimeout(closeTimer);
    };
  }, [accountIndex, key]);

  if (accountIndex === undefined) {
    // The path as it is, key encoded: the sign-in keeps a download route's encoding.
    return <Navigate to={`/login?backUrl=${encodeURIComponent(pathname + search)}`} replace />;
  }

  return (
    <AuthCard title={t('download.title')}>
      <div className="flex flex-col gap-4" data-testid="download-page">
        {status === 'loading' ? <Spinner label={t('download.opening')} /> : null}
        {status === 'started' ? (
          <p role="status" className="text-slate-700">
            {t('download.close')}
          </p>
        ) : null}
        {status === 'failed' ? (
          <AlertBar tone="danger" dismissible={false}>
            {t('common:messages.error')}
          </AlertBar>
        ) : null}
        <Link to={`/u/${accountIndex}`} className="self-start text-blue-800 underline">
          {t('download.back')}
        </Link>
      </div>
    </AuthCard>
  );
}
