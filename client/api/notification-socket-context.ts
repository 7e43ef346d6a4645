import { createActorContext } from '@xstate/react';
import { notificationSocketMachine } from '#machines/notification-socket.machine.ts';

/** The account's notification socket; the shell provides it, screens read its state. */
export const NotificationSocketContext = createActorContext(notificationSocketMachine);
