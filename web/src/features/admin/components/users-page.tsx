import type { UserListItem, UserSortField } from '@attesta/contract';
import { Alert, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { LoadingButton } from '../../../components/ui/loading-button';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { formatDisplayDate } from '../../../lib/format';
import { adminKeys, listRoles, listUsers, saveUser } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { SetPasswordModal } from './set-password-modal';
import { ListTable, type Column } from '../../../components/list-table/list-table';
import { useListState } from '../../../components/list-table/use-list-state';
import { UserFormModal } from './user-form-modal';

interface UserFilter {
  search?: string;
  role?: string;
  schoolId?: number;
  blocked?: boolean;
}

type Editing = { kind: 'form'; user: UserListItem | null } | { kind: 'password'; user: UserListItem } | null;

/** `/admin/users`: search, filter, sort and page through users; create, edit, block, set passwords. */
export function UsersPage() {
  const t = useAdminT();
  const { t: tr, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const list = useListState<UserSortField, UserFilter>({ sort: { field: 'id', dir: 'asc' } });
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);
  const [schoolText, setSchoolText] = useState('');

  const users = useQuery({
    queryKey: [...adminKeys.users, list.request],
    queryFn: () => listUsers(list.request as Parameters<typeof listUsers>[0]),
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({ queryKey: adminKeys.roles, queryFn: listRoles, staleTime: Infinity });
  const roleName = (code: string) => {
    const info = roles.data?.find((r) => r.code === code);
    return info ? (i18n.language === 'en' ? info.nameEn : info.nameRu) : code;
  };

  const block = useMutation({
    mutationFn: (user: UserListItem) => saveUser({ id: user.id, isBlocked: !user.isBlocked }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
    onError: (error) =>
      setNotice({
        color: 'red',
        text:
          error instanceof ApiError && error.code === 'self_lockout'
            ? t('users.selfLockout')
            : describeApiError(error, tr),
      }),
  });

  const columns: Column<UserListItem, UserSortField>[] = [
    { key: 'id', header: t('users.id'), cell: (u) => u.id, csv: (u) => u.id, sortField: 'id' },
    { key: 'login', header: t('users.login'), cell: (u) => u.login, csv: (u) => u.login, sortField: 'login' },
    {
      key: 'name',
      header: t('users.name'),
      cell: (u) => u.displayName,
      csv: (u) => u.displayName,
      sortField: 'surname',
    },
    { key: 'email', header: t('users.email'), cell: (u) => u.email ?? '—', csv: (u) => u.email },
    {
      key: 'roles',
      header: t('users.roles'),
      cell: (u) => u.roles.map(roleName).join(', '),
      csv: (u) => u.roles.map(roleName).join(', '),
    },
    { key: 'school', header: t('users.school'), cell: (u) => u.schoolName ?? '—', csv: (u) => u.schoolName },
    {
      key: 'blocked',
      header: t('users.blocked'),
      cell: (u) =>
        u.isBlocked ? (
          <Badge color="red">{t('users.blockedBadge')}</Badge>
        ) : (
          <Badge color="green" variant="light">
            {t('users.activeBadge')}
          </Badge>
        ),
      csv: (u) => (u.isBlocked ? t('common.yes') : t('common.no')),
    },
    {
      key: 'createdAt',
      header: t('users.createdAt'),
      cell: (u) => formatDisplayDate(new Date(u.createdAt)),
      csv: (u) => formatDisplayDate(new Date(u.createdAt)),
      sortField: 'createdAt',
    },
    {
      key: 'actions',
      header: t('common.actions'),
      cell: (u) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" onClick={() => setEditing({ kind: 'form', user: u })}>
            {t('common.edit')}
          </Button>
          <Button size="compact-xs" variant="light" onClick={() => setEditing({ kind: 'password', user: u })}>
            {t('users.setPassword')}
          </Button>
          <LoadingButton
            size="compact-xs"
            variant="light"
            color={u.isBlocked ? 'green' : 'red'}
            onClick={() => block.mutateAsync(u).catch(() => undefined)}
          >
            {u.isBlocked ? t('users.unblock') : t('users.block')}
          </LoadingButton>
        </Group>
      ),
    },
  ];

  const blockedValue = list.filter.blocked === undefined ? '' : String(list.filter.blocked);

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-users-title">{t('users.title')}</PageTitle>
      {notice && (
        <Alert
          color={notice.color}
          role={notice.color === 'red' ? 'alert' : 'status'}
          withCloseButton
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      )}
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('common.search')}
          placeholder={t('users.searchPlaceholder')}
          value={list.filter.search ?? ''}
          onChange={(e) => list.setFilter({ search: e.currentTarget.value })}
          w={260}
        />
        <Select
          label={t('users.role')}
          data={[
            { value: '', label: t('common.any') },
            ...(roles.data ?? []).map((r) => ({ value: r.code, label: roleName(r.code) })),
          ]}
          value={list.filter.role ?? ''}
          onChange={(v) => list.setFilter({ role: v || undefined })}
          allowDeselect={false}
          w={220}
        />
        <TextInput
          label={t('users.school')}
          value={schoolText}
          inputMode="numeric"
          onChange={(e) => {
            const value = e.currentTarget.value;
            setSchoolText(value);
            list.setFilter({ schoolId: /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined });
          }}
          w={120}
        />
        <Select
          label={t('users.blockedFilter')}
          data={[
            { value: '', label: t('common.any') },
            { value: 'true', label: t('users.blockedBadge') },
            { value: 'false', label: t('users.activeBadge') },
          ]}
          value={blockedValue}
          onChange={(v) => list.setFilter({ blocked: v ? v === 'true' : undefined })}
          allowDeselect={false}
          w={160}
        />
        <Button onClick={() => setEditing({ kind: 'form', user: null })} data-testid="user-create">
          {t('users.create')}
        </Button>
      </Group>
      <ListTable
        caption={t('users.caption')}
        columns={columns}
        rows={users.data?.items}
        total={users.data?.total}
        rowKey={(u) => u.id}
        isLoading={users.isFetching}
        error={users.error}
        onRetry={() => void users.refetch()}
        paging={list}
        sort={list.sort}
        onSort={list.toggleSort}
        csvName="users"
        testId="users-table"
      />
      {editing?.kind === 'form' && (
        <UserFormModal user={editing.user} roles={roles.data ?? []} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'password' && (
        <SetPasswordModal
          user={editing.user}
          onDone={(message) => {
            setEditing(null);
            if (message) setNotice({ color: 'green', text: message });
          }}
        />
      )}
    </Stack>
  );
}
