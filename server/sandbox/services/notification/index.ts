import type { ServiceModule } from '../service.ts';
import { notificationRouter } from './notifications.ts';

/**
 * The notification service: the live channel (WebSocket at WS_PATH) and its HTTP endpoints. Other
 * services push through the hub in the sandbox context; sandbox.ts attaches the socket.
 */
export const notificationService: ServiceModule = {
  name: 'notificationservice',
  prefix: '/notificationservice/v1',
  routers: [notificationRouter],
  migrations: [],
  dependsOn: [],
};

export { ACCESS_CHANGED, NotificationHub, attachNotificationSocket } from './notifications.ts';
