import type { ServiceModule } from '../service.ts';
import { authRouter } from './auth-routes.ts';
import { guestRouter } from './guest-routes.ts';

/**
 * The auth service: sign-in, tokens, SSO codes, and the guest calls (invitations, password
 * reset). Its tables belong to the tenant service's first migration.
 */
export const authService: ServiceModule = {
  name: 'authservice',
  prefix: '/authservice/v1',
  routers: [authRouter, guestRouter],
  migrations: [],
  dependsOn: ['tenantservice', 'notificationservice'],
};

// For the identity-provider page (dev/): it issues the same one-time SSO codes.
export { SAML_CODE_TTL_SECONDS, createCode } from './auth-routes.ts';
// For the tests that move the clock to the end of a forced password change's challenge.
export { CHALLENGE_TTL_SECONDS } from './auth-routes.ts';
