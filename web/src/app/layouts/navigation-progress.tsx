import { Progress } from '@mantine/core';
import { useNavigation } from 'react-router';

/** A thin bar while the router loads the next page's data (the guard asks the server who you are). */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <Progress
      value={100}
      animated
      size="xs"
      radius={0}
      pos="fixed"
      top={0}
      left={0}
      right={0}
      style={{ zIndex: 500 }}
      aria-hidden
    />
  );
}
