/*
 * Owns: a user's own notifications, made by hooks on domain events.
 * Calls: no other module.
 *
 * The notifications module's public face. Other modules do not call it: they publish domain events
 * (events/domain-events.ts) and its producers turn them into notifications.
 */
export { notificationRoutes } from './notifications.routes.js';
