import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import {
  createOrganizationAndUser,
  verifyOrganizationInvitation,
  type OrganizationInvitation,
} from '#client/api/registration-client.ts';
import { parseHashPairs, withHashPair } from '#client/ui/hash-params.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { organizationRegistrationMachine } from '#machines/organization-registration.machine.ts';
import type { RegisterInput, VerifiedInvitation } from '#machines/registration-wizard.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { customFieldsOf, isExpired, registrationPayload } from './registration-forms.ts';
import { WizardView } from './wizard-view.tsx';

const ORDER = ['orgData', 'customData', 'userData'] as const;

/** The token of the link: in the query on arrival, in the hash once a step is shown. */
function invitationToken(location: { search: string; hash: string }): string | null {
  return (
    new URLSearchParams(location.search).get('token') ?? parseHashPairs(location.hash).token ?? null
  );
}

/**
 * /organization/registration?token=...: registers an invited organisation and its contact person
 * (organisation data, custom data when the invitation carries a schema, contact person). The
 * address follows the step as #step=...&token=... (the router shows the 404 without a token).
 */
export default function OrganizationRegistrationPage() {
  const { t } = useTranslation('registration');
  usePageTitle(t('organization.title'));
  const location = useLocation();
  const navigate = useNavigate();
  const token = invitationToken(location);
  const actor = useActorRef(
    organizationRegistrationMachine.provide({
      actors: {
        verifyInvitation: fromPromise<VerifiedInvitation, { token: string | null }>(
          async ({ input, signal }) => {
            if (!input.token) throw new Error('no invitation token in the address');
            const { invitation } = await verifyOrganizationInvitation(input.token, signal);
            if (isExpired(invitation.expiresAt)) throw new Error('invitation expired');
            const { name, street, houseNumber, zipCode, city, country } = invitation;
            return {
              invitation,
              hasCustomSchema: customFieldsOf(invitation.customSchema) !== null,
              values: {
                orgData: { name, street, houseNumber, zipCode, city, country },
                customData: invitation.customFields,
                userData: { email: invitation.email },
              },
            };
          },
        ),
        register: fromPromise<unknown, RegisterInput>(({ input, signal }) => {
          const invitation = input.invitation as OrganizationInvitation;
          const payload = registrationPayload(
            input.token ?? '',
            input.values,
            customFieldsOf(invitation.customSchema),
          );
          return createOrganizationAndUser(payload, signal);
        }),
      },
      actions: {
        // Spec: moving to a step updates the address; the token stays, in the hash.
        showStep: (_, { step }) =>
          void navigate(
            {
              pathname: '/organization/registration',
              search: '',
              hash: withHashPair(withHashPair('', 'step', step), 'token', token ?? ''),
            },
            { replace: true },
          ),
        showExpiredToken: () => void navigate('/expired-token', { replace: true }),
        showSuccess: () => void navigate('/success-registration', { replace: true }),
        logError: (_, { error }) => console.error('organisation registration failed', error),
      },
    }),
    { input: { token } },
  );
  const invitation = useSelector(
    actor,
    (s) => s.context.invitation as OrganizationInvitation | null,
  );
  const customFields = useMemo(
    () => customFieldsOf(invitation?.customSchema ?? null),
    [invitation],
  );
  return (
    <RegistrationFrame title={t('organization.title')}>
      {invitation ? (
        <p className="mb-6 text-slate-700">{t('organization.intro', { name: invitation.name })}</p>
      ) : null}
      <WizardView
        actor={actor}
        order={ORDER}
        kind="organization"
        customFields={customFields}
        ssoUrl={invitation?.samlIdpLoginUrl ?? null}
      />
    </RegistrationFrame>
  );
}
