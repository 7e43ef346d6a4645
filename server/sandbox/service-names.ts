/**
 * The upstream services of the spec, by the name that is the first segment of their paths: the
 * one list of them in the repo. Data, not read from the mounted routers, because with UPSTREAM_URL
 * the BFF proxies to the real upstream, which serves them all, while this sandbox serves some.
 *
 * - `proxied`: a signed-in browser may call it through the BFF (`/api/{account}/{service}/...`);
 *   the auth service is reached only by the BFF itself and by the listed guest calls.
 * - `sandbox`: this sandbox serves it, from `services/<folder>/index.ts` and its registry entry
 *   (services/registry.test.ts checks the two agree).
 *
 * Dependency-free on purpose: the BFF may import this file and sandbox.ts, nothing else of the
 * sandbox (eslint.config.js).
 */
export const UPSTREAM_SERVICES = {
  authservice: { proxied: false, sandbox: true },
  tenantservice: { proxied: true, sandbox: true },
  insuranceservice: { proxied: true, sandbox: true },
  accountservice: { proxied: true, sandbox: true },
  partnerservice: { proxied: true, sandbox: true },
  claimservice: { proxied: true, sandbox: true },
  documentservice: { proxied: true, sandbox: true },
  processmanager: { proxied: true, sandbox: true },
  billingservice: { proxied: true, sandbox: true },
  paymentservice: { proxied: true, sandbox: true },
  notificationservice: { proxied: true, sandbox: true },
  translationservice: { proxied: true, sandbox: true },
  pbmservice: { proxied: true, sandbox: false },
  gdvservice: { proxied: true, sandbox: false },
  publicapi: { proxied: true, sandbox: true },
} as const satisfies Record<string, { proxied: boolean; sandbox: boolean }>;

export type UpstreamServiceName = keyof typeof UPSTREAM_SERVICES;

type Served = {
  [K in UpstreamServiceName]: (typeof UPSTREAM_SERVICES)[K]['sandbox'] extends true ? K : never;
}[UpstreamServiceName];

/** A service this sandbox serves: the `name` of a module in services/registry.ts. */
export type SandboxServiceName = Served;

const names = Object.keys(UPSTREAM_SERVICES) as UpstreamServiceName[];

/** The services a browser's call may reach through the BFF; anything else under /api is a 404. */
export const PROXIED_SERVICES: ReadonlySet<string> = new Set(
  names.filter((name) => UPSTREAM_SERVICES[name].proxied),
);

/** The services this sandbox serves. */
export const SANDBOX_SERVICE_NAMES: readonly SandboxServiceName[] = names.filter(
  (name): name is SandboxServiceName => UPSTREAM_SERVICES[name].sandbox,
);
