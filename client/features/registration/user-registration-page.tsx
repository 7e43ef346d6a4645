import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { createUser, verifyInvite, type UserInvite } from '#client/api/registration-client.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import type { StepValues, WizardStep } from '#machines/registration-wizard.ts';
import { userRegistrationMachine } from '#machines/user-registration.machine.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { customFieldsOf } from './registration-forms.ts';
import { draftOf, passwordMissing, saveStepDraft } from './wizard-draft.ts';
import { wizardIo } from './wizard-io.ts';
import { WizardView } from './wizard-view.tsx';

const ORDER = ['userData', 'customData', 'orgData'] as const;
const KIND = 'user';

/**
 * /registration?token=...: the invited user's wizard (user data, custom data when the tenant has
 * a custom schema, organisation data). Invalid, expired or used links go to /expired-token.
 */
export default function UserRegistrationPage() {
  const { t } = useTranslation('registration');
  usePageTitle(t('user.title'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const io = wizardIo<UserInvite>(navigate, {
    verify: async (token, signal) => (await verifyInvite(token, signal)).invite,
    expiresAt: (invite) => invite.expiresOn,
    prefill: (invite) => ({
      userData: { email: invite.email },
      orgData: invite.organization ? { name: invite.organization.name } : {},
    }),
    register: createUser,
    // A reload goes on at the step it left, with what was typed (never the password): the
    // draft is kept in the tab's session, for this invitation only, and dropped once used.
    draft: draftOf(KIND, token),
  });
  const actor = useActorRef(
    // The password is on the first step: after a reload, Register leads back there first.
    userRegistrationMachine.provide({ ...io, guards: { needsPasswordAgain: passwordMissing } }),
    { input: { token } },
  );
  const onValues = useCallback(
    (step: WizardStep, values: StepValues) =>
      saveStepDraft(KIND, token, actor.getSnapshot().context.values, step, values),
    [actor, token],
  );
  const invite = useSelector(actor, (s) => s.context.invitation as UserInvite | null);
  const customFields = useMemo(() => customFieldsOf(invite?.customSchema ?? null), [invite]);
  return (
    <RegistrationFrame title={t('user.title')}>
      <p className="mb-6 text-slate-700">{t('user.intro')}</p>
      <WizardView
        actor={actor}
        order={ORDER}
        kind="user"
        customFields={customFields}
        onValues={onValues}
      />
    </RegistrationFrame>
  );
}
