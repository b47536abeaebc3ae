/**
 * Routes of the live room view: /organizator/room and /coordinator/room (with …/room/paper/:workId,
 * keying in a paper answer form, and …/room/paper/sitting/:participantTestId, the form of a
 * participant who never opened the work online), and the ugnik's read-only
 * /ugnik/room (its area's school diagnostics; docs/ugnik.md), which puts the monitoring feature's
 * room into the ugnik's page.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { requireRole } from './guards';
import { lazyPage } from '../../components/ui/lazy-page';

const PaperFormPage = lazyPage(() => import('../../features/monitoring/paper-form-page'), 'PaperFormPage');
const PaperSittingPage = lazyPage(
  () => import('../../features/monitoring/paper-form-page'),
  'PaperSittingPage',
);
const LiveRoom = lazyPage(() => import('../../features/monitoring/room-page'), 'LiveRoom');
const RoomPage = lazyPage(() => import('../../features/monitoring/room-page'), 'RoomPage');
const UgnikAreaRoomPage = lazyPage(
  () => import('../../features/ugnik/components/area-room-page'),
  'UgnikAreaRoomPage',
);

export function roomRoutes(queryClient: QueryClient, basename = '/'): RouteObject[] {
  const staff: RouteObject[] = (['organizator', 'coordinator'] as const).flatMap((role) => [
    {
      path: `${role}/room`,
      loader: requireRole(queryClient, role, basename),
      element: <RoomPage role={role} />,
    },
    {
      // A paper answer form keyed into a finished sitting of the room (?diagnosticId=&classId= lead back).
      path: `${role}/room/paper/:workId`,
      loader: requireRole(queryClient, role, basename),
      element: <PaperFormPage role={role} />,
    },
    {
      // The paper form of a sitting by its participant test: a participant never online gets a work from it.
      path: `${role}/room/paper/sitting/:participantTestId`,
      loader: requireRole(queryClient, role, basename),
      element: <PaperSittingPage role={role} />,
    },
  ]);
  return [
    ...staff,
    {
      path: 'ugnik/room',
      loader: requireRole(queryClient, 'ugnik', basename),
      element: <UgnikAreaRoomPage renderRoom={(room) => <LiveRoom room={room} readOnly />} />,
    },
  ];
}
