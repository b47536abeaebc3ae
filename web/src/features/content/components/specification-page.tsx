/**
 * `/admin/content/specifications/:id`: a specification's element tree — add, edit, move (up, down,
 * to another parent) and delete elements (code, name, kind content/skill, parent) — and the
 * all-or-nothing import of elements from an .xlsx/.csv file, its errors shown by row.
 */
import { specificationElementBodySchema, type FieldError, type Specification } from '@attesta/contract';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  FileInput,
  Group,
  List,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  Input,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toCsv } from '../../../components/data-table/csv';
import { saveBlob } from '../../../components/data-table/download';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { contentKeys } from '../api/shared';
import {
  addElement,
  deleteElement,
  importElements,
  specificationQuery,
  updateElement,
} from '../api/specifications';
import { useEditForm } from '../../../lib/use-edit-form';
import { useNotifyError } from '../../../lib/use-notify-error';
import { useLabels } from '../hooks/use-labels';
import { useContentT, useTemplateRows, type ContentKey, type ContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { FormModal } from '../../../components/ui/form-modal';
import { LoadError } from './load-error';
import { ElementSelect } from './pickers';
import { SpecificationFormModal } from './specifications-page';

type Element = Specification['elements'][number];
type Kind = 'content' | 'skill';

/** The element and everything below it (a parent there would make a cycle). */
function subtreeOf(elements: readonly Element[], id: number): Set<number> {
  const ids = new Set([id]);
  for (const e of elements) if (e.parentId !== null && ids.has(e.parentId)) ids.add(e.id);
  return ids;
}

function ElementFormModal({
  specificationId,
  elements,
  element,
  parentId,
  onClose,
}: {
  specificationId: number;
  elements: readonly Element[];
  element: Element | null;
  parentId: number | null;
  onClose: () => void;
}) {
  const t = useContentT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    code: element?.code ?? '',
    name: element?.name ?? '',
    kind: (element?.kind === 'skill' ? 'skill' : 'content') as Kind,
    parentId: element ? element.parentId : parentId,
  }));
  const exclude = element ? subtreeOf(elements, element.id) : undefined;
  const onSubmit = () =>
    form.submit(
      specificationElementBodySchema.safeParse({
        code: form.values.code,
        name: form.values.name,
        kind: form.values.kind,
        parentId: form.values.parentId,
      }),
      async (body) => {
        const spec = element
          ? await updateElement(element.id, body)
          : await addElement(specificationId, body);
        queryClient.setQueryData(contentKeys.specification(specificationId), spec);
        await queryClient.invalidateQueries({ queryKey: [...contentKeys.specifications, 'list'] });
        onClose();
      },
      {
        codeToField: {
          code_taken: { field: 'code', message: t('specs.codeTaken') },
        },
      },
    );
  return (
    <FormModal
      title={element ? t('specs.elementTitle') : t('specs.newElementTitle')}
      testId="element-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Group grow align="flex-start">
        <TextInput
          label={t('specs.elementCode')}
          withAsterisk
          {...form.text('code')}
          data-testid="element-code"
        />
        <Input.Wrapper label={t('specs.kind')}>
          <SegmentedControl
            fullWidth
            data={[
              { value: 'content', label: t('specs.kindContent') },
              { value: 'skill', label: t('specs.kindSkill') },
            ]}
            value={form.values.kind}
            onChange={(v) => form.set('kind', v as Kind)}
            data-testid="element-kind"
          />
        </Input.Wrapper>
      </Group>
      <TextInput
        label={t('specs.elementName')}
        withAsterisk
        {...form.text('name')}
        data-testid="element-name"
      />
      <ElementSelect
        label={t('specs.parent')}
        placeholder={t('specs.topLevel')}
        clearable
        specificationId={specificationId}
        exclude={exclude}
        value={form.values.parentId}
        onChange={(id) => form.set('parentId', id)}
        {...form.errorOf('parentId')}
        data-testid="element-parent"
      />
    </FormModal>
  );
}

function importErrorText(error: FieldError, t: ContentT): string {
  const params = error.params ?? {};
  const code = error.code ?? 'other';
  const known = [
    'required',
    'too_long',
    'duplicate_code',
    'invalid_kind',
    'cycle',
    'unknown_parent',
    'missing_column',
    'empty_file',
    'too_many_rows',
    'not_utf8',
    'malformed_csv',
    'unreadable',
  ];
  const text = known.includes(code)
    ? t(`specImport.codes.${code}` as ContentKey)
    : t('specImport.codes.other');
  const column =
    typeof params.column === 'string' && ['code', 'name', 'parent', 'kind'].includes(params.column)
      ? t(`specImport.columns.${params.column}` as ContentKey)
      : null;
  const where =
    params.row === undefined
      ? null
      : column
        ? t('specImport.rowColumn', { row: params.row, column })
        : t('specImport.row', { row: params.row });
  return where ? `${where}: ${text}` : text;
}

function ImportElements({ specificationId }: { specificationId: number }) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const templateRows = useTemplateRows();
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<FieldError[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = async () => {
    if (!file) return;
    setDone(null);
    setRowErrors(null);
    setError(null);
    try {
      const result = await importElements(specificationId, file);
      queryClient.setQueryData(contentKeys.specification(specificationId), result.specification);
      await queryClient.invalidateQueries({ queryKey: [...contentKeys.specifications, 'list'] });
      setDone(t('specImport.done', { created: result.created, updated: result.updated }));
      setFile(null);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'import_invalid' && e.fieldErrors.length)
        setRowErrors(e.fieldErrors);
      else setError(describeApiError(e, appT));
    }
  };
  const downloadTemplate = () => {
    const [header = [], ...rows] = templateRows;
    saveBlob(
      new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }),
      'specification-template.csv',
    );
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2}>{t('specImport.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('specImport.hint')}
        </Text>
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label={t('specImport.file')}
            placeholder={t('specImport.filePlaceholder')}
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={setFile}
            clearable
            w={320}
            data-testid="spec-import-file"
          />
          <LoadingButton onClick={upload} disabled={!file} data-testid="spec-import-upload">
            {t('specImport.upload')}
          </LoadingButton>
          <Button variant="subtle" onClick={downloadTemplate} data-testid="spec-import-template">
            {t('specImport.template')}
          </Button>
        </Group>
        {done && (
          <Alert color="green" role="status" data-testid="spec-import-done">
            {done}
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert" data-testid="spec-import-error">
            {error}
          </Alert>
        )}
        {rowErrors && (
          <Alert color="red" role="alert" data-testid="spec-import-errors">
            <Stack gap={4}>
              <Text size="sm">{t('specImport.failed')}</Text>
              <List size="sm">
                {rowErrors.map((e, i) => (
                  <List.Item key={i}>{importErrorText(e, t)}</List.Item>
                ))}
              </List>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

type Dialog =
  | { kind: 'element'; element: Element | null; parentId: number | null }
  | { kind: 'delete'; element: Element }
  | { kind: 'spec' }
  | null;

export function SpecificationPage() {
  const t = useContentT();
  const labels = useLabels();
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const notifyError = useNotifyError();
  const spec = useQuery({ ...specificationQuery(id), enabled: Number.isInteger(id) && id > 0 });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [moving, setMoving] = useState(false);

  if (spec.error) {
    const missing = spec.error instanceof ApiError && spec.error.status === 404;
    return (
      <Stack>
        <PageTitle>{t('specs.notFound')}</PageTitle>
        {!missing && <LoadError error={spec.error} onRetry={() => void spec.refetch()} />}
        <Anchor component={Link} to={`${CONTENT_BASE}/specifications`}>
          {t('specs.backToList')}
        </Anchor>
      </Stack>
    );
  }
  const data = spec.data;
  if (!data) return <Loader size="sm" />;
  const elements = data.elements;
  const siblingsOf = (e: Element) => elements.filter((s) => s.parentId === e.parentId);

  /** Moves an element among its siblings: they are numbered 0, 1, … in the new order. */
  const move = async (element: Element, by: -1 | 1) => {
    const siblings = siblingsOf(element);
    const at = siblings.indexOf(element);
    const order = [...siblings];
    [order[at], order[at + by]] = [order[at + by]!, order[at]!];
    setMoving(true);
    try {
      let latest: Specification | null = null;
      for (const [position, e] of order.entries()) {
        if (e.position === position) continue;
        latest = await updateElement(e.id, {
          code: e.code,
          name: e.name,
          kind: e.kind === 'skill' ? 'skill' : 'content',
          position,
        });
      }
      if (latest) queryClient.setQueryData(contentKeys.specification(id), latest);
    } catch (error) {
      notifyError(error);
      await spec.refetch();
    } finally {
      setMoving(false);
    }
  };

  return (
    <Stack gap="md">
      <PageTitle>{data.name}</PageTitle>
      <Group gap="xs">
        {data.parallel !== null && (
          <Badge variant="outline" color="gray">
            {labels.parallel(data.parallel)}
          </Badge>
        )}
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => setDialog({ kind: 'spec' })}
          data-testid="spec-edit"
        >
          {t('common.edit')}
        </Button>
        <Anchor component={Link} to={`${CONTENT_BASE}/specifications`} size="sm">
          {t('specs.backToList')}
        </Anchor>
      </Group>
      {data.description && <Text size="sm">{data.description}</Text>}
      <Group justify="space-between">
        <Title order={2}>{t('specs.tree')}</Title>
        <Button
          onClick={() => setDialog({ kind: 'element', element: null, parentId: null })}
          data-testid="element-add-top"
        >
          {t('specs.addTop')}
        </Button>
      </Group>
      {elements.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('specs.empty')}
        </Text>
      ) : (
        <Stack
          component="ul"
          role="tree"
          aria-label={t('specs.tree')}
          gap={2}
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          data-testid="element-tree"
          aria-busy={moving || undefined}
        >
          {elements.map((e) => {
            const siblings = siblingsOf(e);
            const at = siblings.indexOf(e);
            return (
              <Group
                component="li"
                role="treeitem"
                aria-level={e.depth + 1}
                key={e.id}
                gap="xs"
                wrap="nowrap"
                pl={e.depth * 24}
                py={2}
                data-testid={`element-${e.code}`}
              >
                <Text fw={600} size="sm" miw={60}>
                  {e.code}
                </Text>
                <Text size="sm" style={{ flex: 1 }}>
                  {e.name}
                </Text>
                <Badge variant="light" color={e.kind === 'skill' ? 'grape' : 'blue'} size="sm">
                  {e.kind === 'skill' ? t('specs.kindSkill') : t('specs.kindContent')}
                </Badge>
                <Group gap={2} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('specs.addChildOf', { code: e.code })}
                    onClick={() => setDialog({ kind: 'element', element: null, parentId: e.id })}
                  >
                    ＋
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('specs.editOf', { code: e.code })}
                    onClick={() => setDialog({ kind: 'element', element: e, parentId: e.parentId })}
                    data-testid={`element-edit-${e.code}`}
                  >
                    ✎
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('specs.upOf', { code: e.code })}
                    disabled={at === 0 || moving}
                    onClick={() => void move(e, -1)}
                    data-testid={`element-up-${e.code}`}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('specs.downOf', { code: e.code })}
                    disabled={at === siblings.length - 1 || moving}
                    onClick={() => void move(e, 1)}
                    data-testid={`element-down-${e.code}`}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('specs.deleteOf', { code: e.code })}
                    onClick={() => setDialog({ kind: 'delete', element: e })}
                    data-testid={`element-delete-${e.code}`}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </Group>
            );
          })}
        </Stack>
      )}
      <ImportElements specificationId={id} />
      {dialog?.kind === 'element' && (
        <ElementFormModal
          specificationId={id}
          elements={elements}
          element={dialog.element}
          parentId={dialog.parentId}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDelete
          title={t('common.confirmDelete')}
          question={t('specs.deleteElementQuestion', { code: dialog.element.code })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ conflict: t('specs.elementInUse') }}
          onConfirm={async () => {
            const updated = await deleteElement(dialog.element.id);
            queryClient.setQueryData(contentKeys.specification(id), updated);
            await queryClient.invalidateQueries({ queryKey: [...contentKeys.specifications, 'list'] });
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'spec' && (
        <SpecificationFormModal
          specification={{ ...data, elementCount: elements.length }}
          onClose={(saved) => {
            setDialog(null);
            if (saved) queryClient.setQueryData(contentKeys.specification(id), saved);
          }}
        />
      )}
    </Stack>
  );
}
