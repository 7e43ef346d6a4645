import { createRoot } from 'react-dom/client';
import { readStoredAccounts } from './api/account-storage.ts';
import { renderQuickSignIn } from './app/quick-sign-in.tsx';
import { warmIntl } from './app/warm-intl.ts';
import './styles.css';

const container = document.getElementById('root')!;

// Someone without a stored account on /login gets the light sign-in page at once (issue 14); every
// other page, and the add-account variant of /login, is the app, loaded as its own chunk.
if (/^\/login\/?$/.test(window.location.pathname) && readStoredAccounts().length === 0) {
  renderQuickSignIn(container);
} else {
  // /login for someone with stored accounts arrives prerendered too: the app's first commit
  // replaces that markup.
  const root = createRoot(container);
  void import('./app/start.tsx').then(({ startApp }) => startApp(root));
  warmIntl(navigator.language);
}
