import { assign, fromPromise, setup } from 'xstate';

/**
 * The common statechart of the two invitation registration wizards (user registration and
 * organisation registration). They differ only in the order of their steps and in the calls the
 * client provides; `user-registration.machine.ts` and `organization-registration.machine.ts`
 * build their machines with {@link createRegistrationWizard}.
 */

export type WizardStep = 'userData' | 'customData' | 'orgData';

/** The values of one step's form, as typed (the client converts them before the call). */
export type StepValues = Readonly<Record<string, unknown>>;
export type WizardValues = Readonly<Partial<Record<WizardStep, StepValues>>>;

export interface WizardInput {
  /** The invitation token of the e-mail link; null when the address carries none. */
  token: string | null;
}

/** What the `verifyInvitation` actor resolves with. */
export interface VerifiedInvitation {
  /** The invitation as the server answered (shown by the client: e-mail, organisation, ...). */
  invitation: unknown;
  /** The invitation comes with a custom schema: the wizard has the customData step. */
  hasCustomSchema: boolean;
  /** Prefilled values per step (the invitation's address, custom fields, e-mail). */
  values: WizardValues;
  /**
   * The step to go on with: the one the user was on before a reload (the client keeps it with
   * the values). Without it, or when the invitation has no such step, the first step.
   */
  resumeAt?: WizardStep | undefined;
}

export interface WizardContext {
  token: string | null;
  invitation: unknown;
  hasCustomSchema: boolean;
  /** Each step's values, stored whenever the user leaves that step (next, previous, submit). */
  values: WizardValues;
  /** The last failure of the registration call (for the log); null otherwise. */
  error: unknown;
}

/** What the `register` actor gets: everything the registration call needs. */
export interface RegisterInput {
  token: string | null;
  invitation: unknown;
  values: WizardValues;
}

export type WizardEvent =
  | { type: 'wizard.next'; values: StepValues }
  | { type: 'wizard.previous'; values: StepValues }
  | { type: 'wizard.submit'; values: StepValues };

/**
 * Spec, error catalogue: an invalid, expired or used token answers 403 and leads to
 * /expired-token; any other failure of the registration call is a save error.
 */
export function isInvalidTokenError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 403
  );
}

export interface WizardOptions {
  id: string;
  /** The three steps in the order the user sees them; customData is skipped without a schema. */
  steps: readonly [WizardStep, 'customData', WizardStep];
}

/**
 * A registration wizard: `verifying` the invitation, then the steps under `editing`, then
 * `submitting`, ending in `done` (registered) or `invalid` (the token is invalid, expired or
 * used); a failed registration call other than that lands in `failed`, which keeps every value
 * and lets the user submit again or go back.
 *
 * Events carry the values of the step being left, so that the values are kept between steps and
 * survive a failed call. The submit event is only handled on the last step and in `failed`, so
 * `state.can({ type: 'wizard.submit', ... })` is false while submitting (the button is disabled).
 *
 * Provide: actors `verifyInvitation` (input `{ token }`, resolves with {@link VerifiedInvitation},
 * rejects when the invitation is invalid or expired) and `register` (input `{ token, invitation,
 * values }`); actions `showStep` (params `{ step }`: entered a step, e.g. update the address),
 * `showExpiredToken`, `showSuccess` and `logError` (params `{ error }`).
 */
export function createRegistrationWizard({ id, steps }: WizardOptions) {
  const [first, , last] = steps;

  const wizard = setup({
    types: {
      input: {} as WizardInput,
      context: {} as WizardContext,
      events: {} as WizardEvent,
    },
    actors: {
      verifyInvitation: fromPromise<VerifiedInvitation, { token: string | null }>(async () => {
        throw new Error(`${id}: provide the verifyInvitation actor`);
      }),
      register: fromPromise<unknown, RegisterInput>(async () => {
        throw new Error(`${id}: provide the register actor`);
      }),
    },
    actions: {
      showStep: (_, _params: { step: WizardStep }) => {},
      showExpiredToken: () => {},
      showSuccess: () => {},
      logError: (_, _params: { error: unknown }) => {},
    },
    guards: {
      hasCustomSchema: ({ context }) => context.hasCustomSchema,
      /** A verified invitation asks to go on at `step`, and the wizard has that step. */
      resumesAt: (_, params: { output: VerifiedInvitation; step: WizardStep }) =>
        params.output.resumeAt === params.step &&
        (params.step !== 'customData' || params.output.hasCustomSchema),
      isInvalidToken: (_, params: { error: unknown }) => isInvalidTokenError(params.error),
      /**
       * The user data lack what is never kept across a reload (the password), so the
       * registration would be refused: the wizard goes back to that step instead. Provided by a
       * wizard whose password is on an earlier step than the submit (the user registration).
       */
      needsPasswordAgain: (_: unknown) => false,
    },
  });

  /** Stores the values of the event under `step`: the data of the step being left. */
  const store = (step: WizardStep) =>
    wizard.assign({
      values: ({ context, event }) => ({ ...context.values, [step]: event.values }),
    });

  /** Next from the first step, previous from the last: the custom step only with a schema. */
  const around = (step: WizardStep, target: WizardStep) => [
    {
      guard: 'hasCustomSchema' as const,
      target: `#${id}.editing.customData`,
      actions: store(step),
    },
    { target: `#${id}.editing.${target}`, actions: store(step) },
  ];

  const resumable: WizardStep[] = ['customData', last];
  const enter = (step: WizardStep) => ({ type: 'showStep' as const, params: { step } });

  return wizard.createMachine({
    id,
    context: ({ input }) => ({
      token: input.token,
      invitation: null,
      hasCustomSchema: false,
      values: {},
      error: null,
    }),
    initial: 'verifying',
    states: {
      verifying: {
        invoke: {
          id: 'verifyInvitation',
          src: 'verifyInvitation',
          input: ({ context }) => ({ token: context.token }),
          // A reload goes on at the step it left (the values came back with the invitation).
          onDone: [...resumable, first].map((step) => ({
            ...(step === first
              ? {}
              : {
                  guard: {
                    type: 'resumesAt' as const,
                    params: ({ event }: { event: { output: VerifiedInvitation } }) => ({
                      output: event.output,
                      step,
                    }),
                  },
                }),
            target: `#${id}.editing.${step}`,
            actions: assign({
              invitation: ({ event }) => event.output.invitation,
              hasCustomSchema: ({ event }) => event.output.hasCustomSchema,
              values: ({ event }) => event.output.values,
            }),
          })),
          // Spec: an invalid or failed verification leads to /expired-token.
          onError: 'invalid',
        },
      },
      editing: {
        initial: first,
        states: {
          [first]: {
            entry: enter(first),
            on: { 'wizard.next': around(first, last) },
          },
          customData: {
            entry: enter('customData'),
            on: {
              'wizard.next': { target: last, actions: store('customData') },
              'wizard.previous': { target: first, actions: store('customData') },
            },
          },
          [last]: {
            entry: enter(last),
            on: {
              'wizard.previous': around(last, first),
              'wizard.submit': [
                // After a reload the password must be typed again before anything is sent.
                {
                  guard: 'needsPasswordAgain',
                  target: `#${id}.editing.userData`,
                  actions: store(last),
                },
                { target: `#${id}.submitting`, actions: store(last) },
              ],
            },
          },
        },
      },
      submitting: {
        invoke: {
          id: 'register',
          src: 'register',
          input: ({ context }) => ({
            token: context.token,
            invitation: context.invitation,
            values: context.values,
          }),
          onDone: 'done',
          onError: [
            {
              guard: { type: 'isInvalidToken', params: ({ event }) => ({ error: event.error }) },
              target: 'invalid',
            },
            {
              target: 'failed',
              actions: [
                assign({ error: ({ event }) => event.error }),
                { type: 'logError', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          ],
        },
      },
      // The last step stays on screen with the save error; nothing typed is lost.
      failed: {
        on: {
          'wizard.submit': {
            target: 'submitting',
            actions: [store(last), assign({ error: null })],
          },
          'wizard.previous': around(last, first).map((transition) => ({
            ...transition,
            actions: [store(last), assign({ error: null })],
          })),
        },
      },
      invalid: { type: 'final', entry: 'showExpiredToken' },
      done: { type: 'final', entry: 'showSuccess' },
    },
  });
}

/**
 * Sample events of a wizard: both kinds of invitation, a step's values, an invalid token and a
 * save error. The values are the same for every step, so that the model stays small.
 */
export function wizardPathEvents(values: StepValues) {
  return {
    'xstate.done.actor.verifyInvitation': [
      {
        type: 'xstate.done.actor.verifyInvitation',
        output: { invitation: { email: 'rita@example.test' }, hasCustomSchema: true, values: {} },
      },
      {
        type: 'xstate.done.actor.verifyInvitation',
        output: { invitation: { email: 'rita@example.test' }, hasCustomSchema: false, values: {} },
      },
    ],
    'xstate.error.actor.verifyInvitation': [
      { type: 'xstate.error.actor.verifyInvitation', error: { status: 403 } },
    ],
    'wizard.next': [{ type: 'wizard.next', values }],
    'wizard.previous': [{ type: 'wizard.previous', values }],
    'wizard.submit': [{ type: 'wizard.submit', values }],
    'xstate.done.actor.register': [{ type: 'xstate.done.actor.register', output: {} }],
    'xstate.error.actor.register': [
      { type: 'xstate.error.actor.register', error: { status: 403, code: 'invalid_token' } },
      { type: 'xstate.error.actor.register', error: { status: 409, code: 'already_registered' } },
    ],
  } as const;
}
