import { createRegistrationWizard, wizardPathEvents } from './registration-wizard.ts';

/**
 * The organisation registration wizard at /organization/registration?token=... (spec,
 * "Organisation registration"): verify the invitation, then organisation data, custom data (only
 * when the invitation carries a custom schema) and the contact person, then register. Entering a
 * step runs `showStep`, with which the client writes `#step=<step>` (token kept) into the address.
 * See {@link createRegistrationWizard} for the states and what the client provides.
 */
export const organizationRegistrationMachine = createRegistrationWizard({
  id: 'organizationRegistration',
  steps: ['orgData', 'customData', 'userData'],
});

/** Sample input for `npm run paths -- organization-registration`. */
export const pathsInput = { token: 'invitation-token' };

/** Sample events for the paths script and the model-based tests. */
export const pathEvents = wizardPathEvents({ city: 'Leipzig', firstName: 'Otto' });
