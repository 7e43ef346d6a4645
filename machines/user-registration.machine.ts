import { createRegistrationWizard, wizardPathEvents } from './registration-wizard.ts';

/**
 * The user registration wizard at /registration?token=... (spec, "User registration wizard"):
 * verify the invitation, then user data, custom data (only when a custom schema exists) and
 * organisation data, then register. An invalid, expired or used token leads to /expired-token, a
 * successful registration to /success-registration. See {@link createRegistrationWizard} for the
 * states and what the client provides.
 */
export const userRegistrationMachine = createRegistrationWizard({
  id: 'userRegistration',
  steps: ['userData', 'customData', 'orgData'],
});

/** Sample input for `npm run paths -- user-registration`. */
export const pathsInput = { token: 'invitation-token' };

/** Sample events for the paths script and the model-based tests. */
export const pathEvents = wizardPathEvents({ firstName: 'Rita', street: 'Ringstraße' });
