/**
 * Routes of the live room view: /organizator/room and /coordinator/room, and the ugnik's read-only
 * /ugnik/room (its area's school diagnostics; docs/ugnik.md), which puts the monitoring feature's
 * room into the ugnik's page.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { LiveRoom, RoomPage } from '../../features/monitoring/room-page';
import { UgnikAreaRoomPage } from '../../features/ugnik/components/area-room-page';
import { requireRole } from './guards';

export function roomRoutes(queryClient: QueryClient, basename = '/'): RouteObject[] {
  const staff: RouteObject[] = (['organizator', 'coordinator'] as const).map((role) => ({
    path: `${role}/room`,
    loader: requireRole(queryClient, role, basename),
    element: <RoomPage role={role} />,
  }));
  return [
    ...staff,
    {
      path: 'ugnik/room',
      loader: requireRole(queryClient, 'ugnik', basename),
      element: <UgnikAreaRoomPage renderRoom={(room) => <LiveRoom room={room} readOnly />} />,
    },
  ];
}
