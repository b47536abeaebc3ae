/**
 * The Help button of every page (the runner and the public pages too): a drawer with the help
 * sections for the reader's roles — those about the current page first, then the general ones —
 * each opened in place. The page is the address without its base path, so a section written for
 * `/coordinator/reports` opens on every report tab.
 */
import { Alert, Button, Loader, Stack, Text, Title, UnstyledButton } from '../../../components/lite/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Dialog } from '../../../components/lite/dialog';
import { SafeHtml } from '../../../components/ui/safe-html';
import { helpListQuery, helpSectionQuery } from '../api/help';
import { useHelpT } from '../locales';
import './help-button.css';

function Section({ id, onBack }: { id: number; onBack: () => void }) {
  const t = useHelpT();
  const section = useQuery(helpSectionQuery(id));
  return (
    <Stack gap="sm">
      <Button variant="subtle" size="compact-sm" onClick={onBack} style={{ alignSelf: 'flex-start' }}>
        {`← ${t('back')}`}
      </Button>
      {section.isPending ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : section.isError ? (
        <Alert color="red" role="alert">
          {t('failed')}
        </Alert>
      ) : (
        <article aria-labelledby={`help-section-${id}`} data-testid="help-section">
          <Title order={3} id={`help-section-${id}`} mb="sm">
            {section.data.title}
          </Title>
          <SafeHtml html={section.data.html} className="task-html" />
        </article>
      )}
    </Stack>
  );
}

function Sections({ page, onOpen }: { page: string; onOpen: (id: number) => void }) {
  const t = useHelpT();
  const list = useQuery(helpListQuery(page));
  if (list.isPending) return <Loader size="sm" aria-label={t('loading')} />;
  if (list.isError)
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('failed')}</Text>
          <Button size="compact-sm" variant="light" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      </Alert>
    );
  if (!list.data.items.length) return <Text c="dimmed">{t('empty')}</Text>;
  const groups = [
    { heading: t('thisPage'), items: list.data.items.filter((i) => i.forPage) },
    { heading: t('general'), items: list.data.items.filter((i) => !i.forPage) },
  ].filter((g) => g.items.length);
  return (
    <Stack gap="md">
      {groups.map((g) => (
        <nav key={g.heading} aria-label={g.heading}>
          <Text size="xs" tt="uppercase" c="dimmed" fw={600} mb={4}>
            {g.heading}
          </Text>
          {g.items.map((item) => (
            <UnstyledButton
              key={item.id}
              className="help-item"
              onClick={() => onOpen(item.id)}
              data-testid={`help-item-${item.id}`}
            >
              {item.title}
            </UnstyledButton>
          ))}
        </nav>
      ))}
    </Stack>
  );
}

export function HelpButton() {
  const t = useHelpT();
  const [opened, { open, close }] = useDisclosure(false);
  const [sectionId, setSectionId] = useState<number | null>(null);
  const { pathname } = useLocation();
  // The server takes lower-case path prefixes; ids and codes in the address stay as they are.
  const page = pathname.toLowerCase().replace(/[^a-z0-9/_-]/g, '') || '/';
  return (
    <>
      <Button variant="subtle" size="compact-sm" onClick={open} data-testid="help-open">
        {t('open')}
      </Button>
      <Dialog
        drawer="right"
        opened={opened}
        onClose={() => {
          close();
          setSectionId(null);
        }}
        title={t('title')}
        data-testid="help-drawer"
      >
        {opened &&
          (sectionId === null ? (
            <Sections page={page} onOpen={setSectionId} />
          ) : (
            <Section id={sectionId} onBack={() => setSectionId(null)} />
          ))}
      </Dialog>
    </>
  );
}
