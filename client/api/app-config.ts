import type { BffConfig } from './bff-client.ts';

/**
 * The public runtime configuration (`GET /bff/config`), read once at start. A plain module value
 * rather than a React context: it never changes while the page lives.
 */
let config: BffConfig = { appEnv: 'prod', buildId: __BUILD_ID__, sandbox: false };

export function setAppConfig(value: BffConfig): void {
  config = value;
}

export function getAppConfig(): BffConfig {
  return config;
}
