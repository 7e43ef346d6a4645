import type { BffConfig } from './bff-client.ts';

/**
 * The public runtime configuration (`GET /bff/config`), read once at start. A plain module value
 * rather than a React context: it never changes while the page lives.
 */
let config: BffConfig = {
  appEnv: 'prod',
  buildId: __BUILD_ID__,
  sandbox: false,
  storageOrigin: null,
};

/**
 * True when a signed document address points at the configured storage and nowhere else: the
 * download page navigates to it, so an address from anywhere would be an open redirect.
 */
export function isStorageAddress(address: string, here: string = window.location.origin): boolean {
  let url: URL;
  try {
    url = new URL(address, here);
  } catch {
    return false;
  }
  if (config.storageOrigin) return url.origin === config.storageOrigin;
  return url.origin === here && url.pathname.startsWith('/storage/');
}

export function setAppConfig(value: BffConfig): void {
  config = value;
}

export function getAppConfig(): BffConfig {
  return config;
}
