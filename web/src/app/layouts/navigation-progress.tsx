import { Progress } from '../../components/lite/progress';
import { useNavigation } from 'react-router';

/** A thin bar while the router loads the next page's data (the guard asks the server who you are). */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <Progress indeterminate fixedTop />;
}
