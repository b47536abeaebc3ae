/**
 * `/admin/content/help` and `/admin/content/pages`: the help sections shown by role and page, and
 * the html texts (rules, privacy…), written with the rich-text field and its live preview.
 */
import {
  ROLES,
  adminHelpSaveBodySchema,
  adminHtmlTextSaveBodySchema,
  type AdminHelpSection,
  type AdminHtmlText,
  type Role,
} from '@attesta/contract';
import {
  Badge,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { FormModal } from '../../../components/ui/form-modal';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import {
  deleteHelpSection,
  helpKeys,
  helpSectionsQuery,
  htmlTextsQuery,
  saveHelpSection,
  saveHtmlText,
} from '../api/help';
import { useHelpT } from './help-locales';
import { whereShown } from './help-where';
import { HtmlField } from './html-field';

const PAGE_PATH = /^\/[a-z0-9/_-]*$/;

function HelpSectionModal({ section, onClose }: { section: AdminHelpSection | null; onClose: () => void }) {
  const { t, role, where } = useHelpT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    title: section?.title ?? '',
    html: section?.html ?? '',
    roles: (section?.roles ?? []) as Role[],
    pages: section?.pages ?? [],
    sortOrder: section?.sortOrder ?? 0,
    published: section?.published ?? true,
  }));
  const badPages = form.values.pages.filter((p) => !PAGE_PATH.test(p));
  const onSubmit = () =>
    form.submit(
      adminHelpSaveBodySchema.safeParse(form.values),
      async (body) => {
        await saveHelpSection(body, section?.id);
        await queryClient.invalidateQueries({ queryKey: helpKeys.sections });
        onClose();
      },
      {
        extraErrors: {
          ...(form.values.title.trim() ? {} : { title: t('titleRequired') }),
          ...(badPages.length ? { pages: t('badPage') } : {}),
        },
      },
    );
  return (
    <FormModal
      title={section ? t('editSection', { title: section.title }) : t('createSection')}
      testId="help-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
      size="90%"
    >
      <TextInput label={t('title')} withAsterisk {...form.text('title')} data-testid="help-title" />
      <Group align="flex-start" grow>
        <MultiSelect
          label={t('roles')}
          description={t('rolesHint')}
          placeholder={form.values.roles.length ? undefined : t('everyone')}
          data={ROLES.map((r) => ({ value: r, label: role(r) }))}
          value={form.values.roles}
          onChange={(v) => form.set('roles', v as Role[])}
          data-testid="help-roles"
        />
        <TagsInput
          label={t('pages')}
          description={t('pagesFieldHint')}
          value={form.values.pages}
          onChange={(v) =>
            form.set(
              'pages',
              v.map((p) => p.trim()),
            )
          }
          {...form.errorOf('pages')}
          data-testid="help-pages"
        />
      </Group>
      <Text size="sm" c="dimmed" data-testid="help-where">
        {whereShown(
          form.values.pages.filter((p) => PAGE_PATH.test(p)),
          where,
          role,
        )}
      </Text>
      <Group>
        <NumberInput
          label={t('order')}
          value={form.values.sortOrder}
          onChange={(v) => form.set('sortOrder', typeof v === 'number' ? v : 0)}
          min={-1000}
          max={1000}
          w={140}
        />
        <Switch
          label={t('published')}
          checked={form.values.published}
          onChange={(e) => form.set('published', e.currentTarget.checked)}
          data-testid="help-published"
        />
      </Group>
      <HtmlField
        label={t('text')}
        value={form.values.html}
        onChange={(v) => form.set('html', v)}
        error={form.errorOf('html').error}
        testId="help-html"
      />
    </FormModal>
  );
}

const published = (yes: boolean, t: ReturnType<typeof useHelpT>['t'], word: 'published' | 'publishedPage') =>
  yes ? (
    <Badge color="green" variant="light">
      {t(word)}
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      {t('draft')}
    </Badge>
  );

export function HelpSectionsPage() {
  const { t, role, where } = useHelpT();
  const queryClient = useQueryClient();
  const sections = useQuery(helpSectionsQuery());
  const [editing, setEditing] = useState<AdminHelpSection | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminHelpSection | null>(null);
  const columns: Column<AdminHelpSection>[] = [
    { key: 'title', header: t('title'), render: (s) => s.title },
    {
      key: 'roles',
      header: t('roles'),
      render: (s) => (s.roles.length ? s.roles.map(role).join(', ') : t('everyone')),
    },
    { key: 'pages', header: where('column'), render: (s) => whereShown(s.pages, where, role) },
    { key: 'order', header: t('order'), render: (s) => s.sortOrder },
    { key: 'published', header: t('published'), render: (s) => published(s.published, t, 'published') },
    { key: 'updated', header: t('updated'), render: (s) => formatDisplayDateTime(new Date(s.updatedAt)) },
    {
      key: 'actions',
      header: t('actions'),
      render: (s) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setEditing(s)}
            data-testid={`help-edit-${s.id}`}
          >
            {t('edit')}
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            onClick={() => setDeleting(s)}
            data-testid={`help-delete-${s.id}`}
          >
            {t('delete')}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageTitle>{t('helpTitle')}</PageTitle>
      <Text size="sm" c="dimmed">
        {t('helpHint')}
      </Text>
      <Group>
        <Button onClick={() => setEditing('new')} data-testid="help-create">
          {t('create')}
        </Button>
      </Group>
      {sections.data?.items.length === 0 ? (
        <Text c="dimmed">{t('noSections')}</Text>
      ) : (
        <RowsTable
          caption={t('helpTitle')}
          rows={sections.data?.items}
          error={sections.error}
          onRetry={() => void sections.refetch()}
          columns={columns}
          rowKey={(s) => s.id}
          testId="help-table"
        />
      )}
      {editing && (
        <HelpSectionModal section={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmDelete
          title={t('deleteTitle')}
          question={t('deleteQuestion', { title: deleting.title })}
          confirmLabel={t('delete')}
          cancelLabel={t('cancel')}
          onConfirm={async () => {
            await deleteHelpSection(deleting.id);
            await queryClient.invalidateQueries({ queryKey: helpKeys.sections });
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}

function HtmlTextModal({ text, onClose }: { text: AdminHtmlText | null; onClose: () => void }) {
  const { t } = useHelpT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    code: text?.code ?? '',
    title: text?.title ?? '',
    html: text?.html ?? '',
    published: text?.published ?? true,
  }));
  const onSubmit = () =>
    form.submit(
      adminHtmlTextSaveBodySchema.safeParse({ ...form.values, code: orNull(form.values.code) }),
      async (body) => {
        await saveHtmlText(body, text?.id);
        await queryClient.invalidateQueries({ queryKey: helpKeys.texts });
        onClose();
      },
      {
        extraErrors: form.values.title.trim() ? {} : { title: t('titleRequired') },
        codeToField: { code_taken: { field: 'code', message: t('codeTaken') } },
      },
    );
  return (
    <FormModal
      title={text ? t('editPage', { title: text.title }) : t('createPage')}
      testId="page-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
      size="90%"
    >
      <Group align="flex-start" grow>
        <TextInput label={t('title')} withAsterisk {...form.text('title')} data-testid="page-title" />
        <TextInput
          label={t('code')}
          description={t('codeHint')}
          {...form.text('code')}
          data-testid="page-code"
        />
      </Group>
      <Switch
        label={t('publishedPage')}
        checked={form.values.published}
        onChange={(e) => form.set('published', e.currentTarget.checked)}
      />
      <HtmlField
        label={t('text')}
        value={form.values.html}
        onChange={(v) => form.set('html', v)}
        error={form.errorOf('html').error}
        testId="page-html"
      />
    </FormModal>
  );
}

export function HtmlTextsPage() {
  const { t, where } = useHelpT();
  const texts = useQuery(htmlTextsQuery());
  const [editing, setEditing] = useState<AdminHtmlText | 'new' | null>(null);
  const columns: Column<AdminHtmlText>[] = [
    { key: 'title', header: t('title'), render: (p) => p.title },
    { key: 'code', header: t('code'), render: (p) => p.code ?? '—' },
    {
      key: 'where',
      header: where('column'),
      render: (p) => (p.code ? where('byCode', { code: p.code }) : where('noCode')),
    },
    {
      key: 'published',
      header: t('publishedPage'),
      render: (p) => published(p.published, t, 'publishedPage'),
    },
    { key: 'updated', header: t('updated'), render: (p) => formatDisplayDateTime(new Date(p.updatedAt)) },
    {
      key: 'actions',
      header: t('actions'),
      render: (p) => (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => setEditing(p)}
          data-testid={`page-edit-${p.id}`}
        >
          {t('edit')}
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageTitle>{t('pagesTitle')}</PageTitle>
      <Text size="sm" c="dimmed">
        {t('pagesHint')}
      </Text>
      <Group>
        <Button onClick={() => setEditing('new')} data-testid="page-create">
          {t('create')}
        </Button>
      </Group>
      {texts.data?.items.length === 0 ? (
        <Text c="dimmed">{t('noPages')}</Text>
      ) : (
        <RowsTable
          caption={t('pagesTitle')}
          rows={texts.data?.items}
          error={texts.error}
          onRetry={() => void texts.refetch()}
          columns={columns}
          rowKey={(p) => p.id}
          testId="pages-table"
        />
      )}
      {editing && (
        <HtmlTextModal text={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
}
