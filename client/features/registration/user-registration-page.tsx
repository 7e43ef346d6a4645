import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { createUser, verifyInvite, type UserInvite } from '#client/api/registration-client.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { userRegistrationMachine } from '#machines/user-registration.machine.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { customFieldsOf } from './registration-forms.ts';
import { wizardIo } from './wizard-io.ts';
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
    userRegistrationMachine.provide(
      wizardIo<UserInvite>(navigate, {
        verify: async (token, signal) => (await verifyInvite(token, signal)).invite,
        expiresAt: (invite) => invite.expiresOn,
        prefill: (invite) => ({
          userData: { email: invite.email },
          orgData: invite.organization ? { name: invite.organization.name } : {},
        }),
        register: createUser,
      }),
    ),
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
