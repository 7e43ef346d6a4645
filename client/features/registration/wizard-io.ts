import type { NavigateFunction } from 'react-router';
import { fromPromise } from 'xstate';
import type {
  InvitationCustomSchema,
  RegistrationPayload,
} from '#client/api/registration-client.ts';
import type {
  RegisterInput,
  VerifiedInvitation,
  WizardValues,
} from '#machines/registration-wizard.ts';
import { isExpired } from '#common/registration-fields.ts';
import { customFieldsOf, registrationPayload } from './registration-forms.ts';
import { mergeDraft, type WizardDraft } from './wizard-draft.ts';

type Invitation = { customSchema: InvitationCustomSchema | null };

/**
 * The I/O both wizards give their machine: the verification (with the spec's expiry rule), the
 * registration call with the spec's payload, and the way to the result pages.
 */
export function wizardIo<T extends Invitation>(
  navigate: NavigateFunction,
  calls: {
    verify: (token: string, signal: AbortSignal) => Promise<T>;
    expiresAt: (invitation: T) => string;
    /** The values the steps start with (the invitation's e-mail, address, custom fields). */
    prefill: (invitation: T) => WizardValues;
    register: (payload: RegistrationPayload, signal: AbortSignal) => Promise<unknown>;
    /** What the wizard kept before a reload (step and values), if it keeps any. */
    draft?: { load: () => WizardDraft | null; clear: () => void };
  },
) {
  return {
    actors: {
      verifyInvitation: fromPromise<VerifiedInvitation, { token: string | null }>(
        async ({ input, signal }) => {
          if (!input.token) throw new Error('no invitation token in the address');
          const invitation = await calls.verify(input.token, signal);
          // Spec: expired when the current time is after expiresAt (the service says so too).
          if (isExpired(calls.expiresAt(invitation))) throw new Error('invitation expired');
          const draft = calls.draft?.load() ?? null;
          return {
            invitation,
            hasCustomSchema: customFieldsOf(invitation.customSchema) !== null,
            values: mergeDraft(calls.prefill(invitation), draft),
            resumeAt: draft?.step,
          };
        },
      ),
      register: fromPromise<unknown, RegisterInput>(({ input, signal }) => {
        const { customSchema } = input.invitation as Invitation;
        const fields = customFieldsOf(customSchema);
        return calls.register(registrationPayload(input.token ?? '', input.values, fields), signal);
      }),
    },
    actions: {
      // Used up or dead, the invitation's draft is of no further use.
      showExpiredToken: () => {
        calls.draft?.clear();
        void navigate('/expired-token', { replace: true });
      },
      showSuccess: () => {
        calls.draft?.clear();
        void navigate('/success-registration', { replace: true });
      },
      // Spec, error catalogue: a save failure shows errorSave and is logged.
      logError: (_: unknown, { error }: { error: unknown }) =>
        console.error('registration failed', error),
    },
  };
}
