/**
 * The feedback modal the header's button opens (feedback-button.tsx), a chunk of its own: a message
 * and at most one file, sent with the path of the current page. Failures are said by code (too many
 * messages, a file too large or of a refused type…), the text kept for another try.
 */
import { Alert, Anchor, Button, FileInput, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { describeApiError } from '../../../lib/form-errors';
import { sendFeedback, subjectOf } from '../api/feedback';
import { useFeedbackT } from '../locales';

export function FeedbackDialog({ userId, close }: { userId: number; close: () => void }) {
  const t = useFeedbackT();
  const { pathname, search } = useLocation();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [textError, setTextError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () =>
      sendFeedback({
        subjectId: subjectOf(pathname, userId),
        text: text.trim(),
        page: `${pathname}${search}`,
        file,
      }),
    onSuccess: () => {
      setText('');
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: ['feedback', 'mine'] });
    },
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setTextError(t('textRequired'));
      return;
    }
    setTextError(null);
    send.mutate();
  };
  const onClose = () => {
    close();
    send.reset();
  };

  return (
    <>
      <Modal opened onClose={onClose} title={t('title')} size="lg">
        {send.isSuccess ? (
          <Stack>
            <Alert color="green" role="status" data-testid="feedback-sent">
              {t('sent')}
            </Alert>
            <Group justify="space-between">
              <Anchor component={Link} to="/account/feedback" onClick={onClose}>
                {t('mineLink')}
              </Anchor>
              <Button onClick={onClose}>{t('close')}</Button>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <Textarea
                label={t('text')}
                description={t('textHint')}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                error={textError}
                maxLength={4000}
                rows={5}
                required
                data-autofocus
              />
              <FileInput
                label={t('file')}
                placeholder={t('filePlaceholder')}
                value={file}
                onChange={setFile}
                clearable
                data-testid="feedback-file"
              />
              {send.isError && (
                <Alert color="red" role="alert" data-testid="feedback-error">
                  {describeApiError(send.error, t.raw)}
                </Alert>
              )}
              <Group justify="space-between">
                <Anchor component={Link} to="/account/feedback" onClick={onClose} size="sm">
                  {t('mineLink')}
                </Anchor>
                <Group>
                  <Button variant="default" onClick={onClose}>
                    {t('cancel')}
                  </Button>
                  <Button type="submit" loading={send.isPending}>
                    {t('send')}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
