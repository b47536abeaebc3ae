/**
 * The «Обратная связь» button of the header (every signed-in page, the runner too). The modal
 * (feedback-dialog.tsx) is a chunk of its own, loaded with Mantine's whole stylesheet and provider on the first
 * click: a participant who never writes one does not download it (docs/BENCHMARKS.md, issue 24).
 * If it cannot be loaded (offline), the button says so and stays.
 */
import { Button } from '../../../components/lite/core';
import { useState, type ComponentType } from 'react';
import { useFeedbackNavT } from '../nav-locales';

type Dialog = ComponentType<{ userId: number; close: () => void }>;

const loadDialog = (): Promise<Dialog> =>
  Promise.all([
    import('./feedback-dialog'),
    import('../../../components/ui/staff-theme'),
    import('../../../components/ui/all-styles'),
  ]).then(([m, { StaffTheme }]) => {
    const Inner = m.FeedbackDialog;
    // Mantine's dialog, with Mantine's provider: the shell has none (components/ui/staff-theme.tsx).
    return (props) => (
      <StaffTheme>
        <Inner {...props} />
      </StaffTheme>
    );
  });

export function FeedbackButton({ userId }: { userId: number }) {
  const t = useFeedbackNavT();
  const [dialog, setDialog] = useState<{ Dialog: Dialog } | null>(null);
  const [opened, setOpened] = useState(false);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const open = () => {
    if (dialog) return setOpened(true);
    setState('loading');
    loadDialog().then(
      (Dialog) => {
        setDialog({ Dialog });
        setOpened(true);
        setState('idle');
      },
      () => setState('failed'),
    );
  };
  const Dialog = dialog?.Dialog;
  return (
    <>
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={open}
        loading={state === 'loading'}
        color={state === 'failed' ? 'red.8' : undefined}
        title={state === 'failed' ? t('loadFailed') : undefined}
        data-testid="feedback-open"
      >
        {state === 'failed' ? t('loadFailed') : t('open')}
      </Button>
      {Dialog && opened && <Dialog userId={userId} close={() => setOpened(false)} />}
    </>
  );
}
