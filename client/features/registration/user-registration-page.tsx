import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { createUser, verifyInvite, type UserInvite } from '#client/api/registration-client.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import type { RegisterInput, VerifiedInvitation } from '#machines/registration-wizard.ts';
import { userRegistrationMachine } from '#machines/user-registration.machine.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { customFieldsOf, isExpired, registrationPayload } from './registration-forms.ts';
import { WizardView } from './wizard-view.tsx';

const ORDER = ['userData', 'customData', 'orgData'] as const;

/**
 * /registration?token=...: the invited user's wizard (user data, custom data when the tenant has
 * a custom schema, organisation data). Invalid, expired or used links go to /expired-token.
 */
export default function UserRegistrationPage() {
  const { t } = useTranslation('registration');
  usePageTitle(t('user.title'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const actor = useActorRef(
    userRegistrationMachine.provide({
      actors: {
        verifyInvitation: fromPromise<VerifiedInvitation, { token: string | null }>(
          async ({ input, signal }) => {
            if (!input.token) throw new Error('no invitation token in the address');
            const { invite } = await verifyInvite(input.token, signal);
            if (isExpired(invite.expiresOn)) throw new Error('invitation expired');
            return {
              invitation: invite,
              hasCustomSchema: customFieldsOf(invite.customSchema) !== null,
              values: {
                userData: { email: invite.email },
                orgData: invite.organization ? { name: invite.organization.name } : {},
              },
            };
          },
        ),
        register: fromPromise<unknown, RegisterInput>(({ input, signal }) => {
          const invite = input.invitation as UserInvite;
          const payload = registrationPayload(
            input.token ?? '',
            input.values,
            customFieldsOf(invite.customSchema),
          );
          return createUser(payload, signal);
        }),
      },
      actions: {
        showExpiredToken: () => void navigate('/expired-token', { replace: true }),
        showSuccess: () => void navigate('/success-registration', { replace: true }),
        logError: (_, { error }) => console.error('registration failed', error),
      },
    }),
    { input: { token: params.get('token') } },
  );
  const invite = useSelector(actor, (s) => s.context.invitation as UserInvite | null);
  const customFields = useMemo(() => customFieldsOf(invite?.customSchema ?? null), [invite]);
  return (
    <RegistrationFrame title={t('user.title')}>
      <p className="mb-6 text-slate-700">{t('user.intro')}</p>
      <WizardView actor={actor} order={ORDER} kind="user" customFields={customFields} />
    </RegistrationFrame>
  );
}
