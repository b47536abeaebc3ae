import type { UserListItem, UserListRequest, UserSortField } from '@attesta/contract';
import { Alert, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDate } from '../../../lib/format';
import { adminKeys, listRoles, listUsers, saveUser } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { SetPasswordModal } from './set-password-modal';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { ConfirmAction } from '../../../components/ui/confirm-action';
import { UserFormModal } from './user-form-modal';
import { ExpertProfileModal } from './expert-profile-modal';
import { RemoteSelect } from './org-selects';

type UserFilter = NonNullable<UserListRequest['filter']>;

type Editing =
  | { kind: 'form'; user: UserListItem | null }
  | { kind: 'password'; user: UserListItem }
  | { kind: 'expert'; user: UserListItem }
  | null;

/**
 * `/admin/users`: search, filter, sort and page through users; create, edit, block, set passwords;
 * assign an expert to subjects and subject tests.
 */
export function UsersPage() {
  const t = useAdminT();
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useFilter<UserFilter>({});
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);

  const roles = useQuery({ queryKey: adminKeys.roles, queryFn: listRoles, staleTime: Infinity });
  const roleName = (code: string) => {
    const info = roles.data?.find((r) => r.code === code);
    return info ? (i18n.language === 'en' ? info.nameEn : info.nameRu) : code;
  };

  const [blocking, setBlocking] = useState<UserListItem | null>(null);
  // Blocking ends the person's sessions and locks them out: asked first, then reported.
  const block = useMutation({
    mutationFn: (user: UserListItem) => saveUser({ id: user.id, isBlocked: !user.isBlocked }),
    onSuccess: (_, user) => {
      setNotice({
        color: 'green',
        text: t(user.isBlocked ? 'users.unblockedDone' : 'users.blockedDone', { login: user.login }),
      });
      return queryClient.invalidateQueries({ queryKey: adminKeys.users });
    },
  });

  const columns: Column<UserListItem, UserSortField>[] = [
    {
      key: 'login',
      header: t('users.login'),
      render: (u) => u.login,
      csv: (u) => u.login,
      sortField: 'login',
    },
    {
      key: 'name',
      header: t('users.name'),
      render: (u) => u.displayName,
      csv: (u) => u.displayName,
      sortField: 'surname',
    },
    { key: 'email', header: t('users.email'), render: (u) => u.email ?? '—', csv: (u) => u.email },
    {
      key: 'roles',
      header: t('users.roles'),
      render: (u) => u.roles.map(roleName).join(', '),
      csv: (u) => u.roles.map(roleName).join(', '),
    },
    {
      key: 'school',
      header: t('users.school'),
      render: (u) => u.schoolName ?? '—',
      csv: (u) => u.schoolName,
    },
    {
      key: 'blocked',
      header: t('users.blocked'),
      render: (u) =>
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
      render: (u) => formatDisplayDate(new Date(u.createdAt)),
      csv: (u) => formatDisplayDate(new Date(u.createdAt)),
      sortField: 'createdAt',
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (u) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" onClick={() => setEditing({ kind: 'form', user: u })}>
            {t('common.edit')}
          </Button>
          <Button size="compact-xs" variant="light" onClick={() => setEditing({ kind: 'password', user: u })}>
            {t('users.setPassword')}
          </Button>
          {u.roles.includes('expert') && (
            <Button
              size="compact-xs"
              variant="light"
              color="grape"
              onClick={() => setEditing({ kind: 'expert', user: u })}
              aria-label={t('experts.openOf', { login: u.login })}
              data-testid={`user-expert-${u.id}`}
            >
              {t('experts.open')}
            </Button>
          )}
          <Button
            size="compact-xs"
            variant="light"
            color={u.isBlocked ? 'green' : 'red'}
            onClick={() => setBlocking(u)}
          >
            {u.isBlocked ? t('users.unblock') : t('users.block')}
          </Button>
        </Group>
      ),
    },
  ];

  const blockedValue = filter.blocked === undefined ? '' : String(filter.blocked);

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
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={260}
        />
        <Select
          label={t('users.role')}
          data={[
            { value: '', label: t('common.any') },
            ...(roles.data ?? []).map((r) => ({ value: r.code, label: roleName(r.code) })),
          ]}
          value={filter.role ?? ''}
          onChange={(v) => setFilter({ role: (v || undefined) as UserFilter['role'] })}
          allowDeselect={false}
          w={220}
        />
        <RemoteSelect
          kind="school"
          label={t('users.school')}
          placeholder={t('common.any')}
          value={filter.schoolId ?? null}
          onChange={(id) => setFilter({ schoolId: id ?? undefined })}
          w={280}
        />
        <Select
          label={t('users.blockedFilter')}
          data={[
            { value: '', label: t('common.any') },
            { value: 'true', label: t('users.blockedBadge') },
            { value: 'false', label: t('users.activeBadge') },
          ]}
          value={blockedValue}
          onChange={(v) => setFilter({ blocked: v ? v === 'true' : undefined })}
          allowDeselect={false}
          w={160}
        />
        <Button onClick={() => setEditing({ kind: 'form', user: null })} data-testid="user-create">
          {t('users.create')}
        </Button>
      </Group>
      <DataTable
        caption={t('users.caption')}
        queryKey={adminKeys.users}
        fetchPage={listUsers}
        filter={filter}
        initialSort={{ field: 'id', dir: 'asc' }}
        pageSize={20}
        columns={columns}
        rowKey={(u) => u.id}
        exportName="users"
        testId="users-table"
      />
      {editing?.kind === 'form' && (
        <UserFormModal user={editing.user} roles={roles.data ?? []} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'expert' && (
        <ExpertProfileModal
          user={editing.user}
          onDone={(message) => {
            setEditing(null);
            if (message) setNotice({ color: 'green', text: message });
          }}
        />
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
      {blocking && (
        <ConfirmAction
          title={t(blocking.isBlocked ? 'users.unblockTitle' : 'users.blockTitle')}
          question={t(blocking.isBlocked ? 'users.unblockConfirm' : 'users.blockConfirm', {
            login: blocking.login,
          })}
          confirmLabel={t(blocking.isBlocked ? 'users.unblock' : 'users.block')}
          cancelLabel={t('common.cancel')}
          color={blocking.isBlocked ? undefined : 'red'}
          conflicts={{ self_lockout: t('users.selfLockout') }}
          onConfirm={() => block.mutateAsync(blocking)}
          onClose={() => setBlocking(null)}
        />
      )}
    </Stack>
  );
}
