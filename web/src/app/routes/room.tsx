/** Routes of the live room view: /organizator/room and /coordinator/room. */
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { RoomPage } from '../../features/monitoring/room-page';
import { requireRole } from './guards';

export function roomRoutes(queryClient: QueryClient, basename = '/'): RouteObject[] {
  return (['organizator', 'coordinator'] as const).map((role) => ({
    path: `${role}/room`,
    loader: requireRole(queryClient, role, basename),
    element: <RoomPage role={role} />,
  }));
}
