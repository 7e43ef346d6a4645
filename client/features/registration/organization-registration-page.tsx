import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  createOrganizationAndUser,
  verifyOrganizationInvitation,
  type OrganizationInvitation,
} from '#client/api/registration-client.ts';
import { parseHashPairs, withHashPair } from '#client/ui/hash-params.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { organizationRegistrationMachine } from '#machines/organization-registration.machine.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { customFieldsOf } from './registration-forms.ts';
import { wizardIo } from './wizard-io.ts';
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
  const io = wizardIo<OrganizationInvitation>(navigate, {
    verify: async (invitationToken, signal) =>
      (await verifyOrganizationInvitation(invitationToken, signal)).invitation,
    expiresAt: (invitation) => invitation.expiresAt,
    prefill: ({ name, street, houseNumber, zipCode, city, country, customFields, email }) => ({
      orgData: { name, street, houseNumber, zipCode, city, country },
      customData: customFields,
      userData: { email },
    }),
    register: createOrganizationAndUser,
  });
  const actor = useActorRef(
    organizationRegistrationMachine.provide({
      ...io,
      actions: {
        ...io.actions,
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
