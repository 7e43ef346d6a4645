import { createActorContext } from '@xstate/react';
import { sessionMachine } from '#machines/session.machine.ts';

/**
 * The session actor, shared by every feature. `client/app/session-provider.tsx` gives it the
 * real I/O with `.provide()`; features only read it and send events.
 */
export const SessionActorContext = createActorContext(sessionMachine);
