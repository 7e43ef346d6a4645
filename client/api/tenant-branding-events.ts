import type { Branding } from './tenant-client.ts';

/**
 * Saved branding reaches the shell at once, without a reload: the settings screen announces what
 * the tenant service answered and the shell of that account listens (features and the shell do
 * not import each other, so the channel lives here).
 */
type Listener = (accountIndex: number, branding: Branding) => void;
const listeners = new Set<Listener>();

export function announceBranding(accountIndex: number, branding: Branding): void {
  for (const listener of listeners) listener(accountIndex, branding);
}

/** Returns the unsubscribe function (for an effect's cleanup). */
export function onBrandingSaved(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
