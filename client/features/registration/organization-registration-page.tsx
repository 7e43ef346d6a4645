import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
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
import type { StepValues, WizardStep } from '#machines/registration-wizard.ts';
import { RegistrationFrame } from './registration-frame.tsx';
import { customFieldsOf } from './registration-forms.ts';
import { draftOf, saveStepDraft } from './wizard-draft.ts';
import { wizardIo } from './wizard-io.ts';
import { WizardView } from './wizard-view.tsx';

const ORDER = ['orgData', 'customData', 'userData'] as const;
const KIND = 'organization';

/** The step the address names (#step=...), if it is one of this wizard's. */
function stepOfHash(hash: string): WizardStep | null {
  const step = parseHashPairs(hash).step;
  return ORDER.find((known) => known === step) ?? null;
}

/** The history entry of a step remembers the step it was reached from (Back goes there). */
interface StepEntryState {
  wizardFrom?: WizardStep;
}

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
    // A reload goes on where it was, with what was typed (never the password).
    draft: draftOf(KIND, token),
  });
  const actor = useActorRef(
    organizationRegistrationMachine.provide({
      ...io,
      actions: {
        ...io.actions,
        // Spec: moving to a step updates the address; the token stays, in the hash. Each step is
        // a history entry (the first replaces the link's address), so that Back goes one step
        // back; a step reached through Back or a reload is in the address already.
        showStep: (_, { step }) => {
          const shown = stepOfHash(window.location.hash);
          if (shown === step) return;
          void navigate(
            {
              pathname: '/organization/registration',
              search: '',
              hash: withHashPair(withHashPair('', 'step', step), 'token', token ?? ''),
            },
            shown === null
              ? { replace: true }
              : { state: { wizardFrom: shown } satisfies StepEntryState },
          );
        },
      },
    }),
    { input: { token } },
  );
  // The values on screen, passwords included (those stay in memory only).
  const live = useRef<{ step: WizardStep; values: StepValues } | null>(null);
  const onValues = useCallback(
    (step: WizardStep, values: StepValues) => {
      live.current = { step, values };
      saveStepDraft(KIND, token, actor.getSnapshot().context.values, step, values);
    },
    [actor, token],
  );
  const editingStep = (): WizardStep | null => {
    const snapshot = actor.getSnapshot();
    if (snapshot.matches('failed')) return 'userData';
    return (snapshot.value as { editing?: WizardStep }).editing ?? null;
  };
  const valuesOf = (step: WizardStep): StepValues =>
    live.current?.step === step
      ? live.current.values
      : (actor.getSnapshot().context.values[step] ?? {});
  // The Previous button is Back when the entry before is the previous step, so that the history
  // and the wizard agree; else (the page was opened at a later step) it goes back in the wizard.
  const previous = (values: StepValues) => {
    const from = (location.state as StepEntryState | null)?.wizardFrom;
    live.current = { step: editingStep() ?? 'userData', values };
    if (from && ORDER.indexOf(from) < ORDER.indexOf(editingStep() ?? 'userData')) {
      void navigate(-1);
    } else {
      actor.send({ type: 'wizard.previous', values });
    }
  };
  // Back and Forward of the browser: the address names another step than the wizard shows.
  useEffect(() => {
    const wanted = stepOfHash(location.hash);
    const current = editingStep();
    if (!wanted || !current || wanted === current) return;
    if (ORDER.indexOf(wanted) < ORDER.indexOf(current)) {
      actor.send({ type: 'wizard.previous', values: valuesOf(current) });
    } else {
      // Forward past a step that was not checked: the wizard's step stays, and so the address.
      void navigate(
        {
          pathname: location.pathname,
          search: '',
          hash: withHashPair(location.hash, 'step', current),
        },
        { replace: true, state: location.state },
      );
    }
    // Only a change of address is a reason to look again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.hash]);
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
        onValues={onValues}
        onPrevious={previous}
      />
    </RegistrationFrame>
  );
}
