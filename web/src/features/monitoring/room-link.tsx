/** The link from a staff home to its live room view. */
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import './i18n';
import { useMonitoringT } from './i18n';

export function RoomLink({ role }: { role: string }) {
  const mt = useMonitoringT();
  if (role !== 'organizator' && role !== 'coordinator') return null;
  return (
    <nav aria-label={mt('nav')}>
      <Anchor component={Link} to={`/${role}/room`} data-testid="room-link" fw={500}>
        {mt('nav')}
      </Anchor>
      <Text size="xs" c="dimmed">
        {mt('navHint')}
      </Text>
    </nav>
  );
}
