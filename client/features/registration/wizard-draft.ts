import type { WizardStep, WizardValues } from '#machines/registration-wizard.ts';

/**
 * What a registration wizard keeps across a reload: the step and the values typed so far, in the
 * tab's sessionStorage (gone with the tab, never shared with other tabs). Passwords are never
 * written: after a reload they are typed again. The invitation token is not stored either; a
 * draft knows its invitation by the token's last characters, so that another link starts empty.
 */

const KEY = 'registration-draft';
/** Fields that never reach the browser's storage. */
const SECRET_FIELDS = new Set(['newPassword', 'confirmPassword']);
const STEPS: readonly WizardStep[] = ['userData', 'customData', 'orgData'];

export interface WizardDraft {
  step: WizardStep;
  values: WizardValues;
}

interface StoredDraft extends WizardDraft {
  kind: string;
  invitation: string;
}

const invitationMark = (token: string) => token.slice(-8);

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage switched off (a privacy setting): the wizard works, only a reload starts over.
    return null;
  }
}

function withoutSecrets(values: WizardValues): WizardValues {
  return Object.fromEntries(
    Object.entries(values).map(([step, stepValues]) => [
      step,
      Object.fromEntries(
        Object.entries(stepValues ?? {}).filter(([name]) => !SECRET_FIELDS.has(name)),
      ),
    ]),
  );
}

export function saveDraft(kind: string, token: string, draft: WizardDraft): void {
  const stored: StoredDraft = {
    kind,
    invitation: invitationMark(token),
    step: draft.step,
    values: withoutSecrets(draft.values),
  };
  try {
    storage()?.setItem(KEY, JSON.stringify(stored));
  } catch {
    // Quota or storage errors lose only the convenience of a reload.
  }
}

/** The draft of this wizard and invitation, or null (none, another one's, or unreadable). */
export function loadDraft(kind: string, token: string): WizardDraft | null {
  try {
    const raw = storage()?.getItem(KEY);
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<StoredDraft>;
    if (draft.kind !== kind || draft.invitation !== invitationMark(token)) return null;
    if (!STEPS.includes(draft.step as WizardStep) || typeof draft.values !== 'object') return null;
    return { step: draft.step as WizardStep, values: withoutSecrets(draft.values ?? {}) };
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

/** The prefilled values with the draft's on top, step by step. */
export function mergeDraft(prefill: WizardValues, draft: WizardDraft | null): WizardValues {
  if (!draft) return prefill;
  return Object.fromEntries(
    STEPS.map((step) => [step, { ...prefill[step], ...draft.values[step] }]),
  );
}

/**
 * What a wizard page gives `wizardIo` to keep its draft: the draft of this wizard and invitation,
 * read when the invitation is verified, and its removal (registered, or the link is dead).
 */
export function draftOf(kind: string, token: string | null) {
  return { load: () => (token ? loadDraft(kind, token) : null), clear: clearDraft };
}

/**
 * Writes the draft on a change of a step's values: the step, what the wizard kept of the other
 * steps (`kept`, its context) and this step's values as typed (saveDraft drops the passwords).
 */
export function saveStepDraft(
  kind: string,
  token: string | null,
  kept: WizardValues,
  step: WizardStep,
  values: Readonly<Record<string, unknown>>,
): void {
  if (token) saveDraft(kind, token, { step, values: { ...kept, [step]: values } });
}

/**
 * The machine's `needsPasswordAgain` for a wizard whose password comes before its last step: the
 * user data hold no password when they came back from a draft (a reload), and a registration
 * without one would be refused at the end.
 */
export function passwordMissing({ context }: { context: { values: WizardValues } }): boolean {
  return !context.values.userData?.['newPassword'];
}
