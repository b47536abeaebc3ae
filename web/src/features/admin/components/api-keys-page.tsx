import {
  apiKeyCreateBodySchema,
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyScope,
} from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { instant } from '../../../components/staff-format';
import { LoadingButton } from '../../../components/ui/loading-button';
import { describeApiError } from '../../../lib/form-errors';
import { useEditForm } from '../../../lib/use-edit-form';
import { FormModal } from '../../../components/ui/form-modal';
import { PageTitle } from '../../../components/ui/page-title';
import { apiKeyKeys, createApiKey, listApiKeys, revokeApiKey } from '../api/api-keys-api';
import { useAdminT } from '../i18n';
import { RemoteSelect } from './org-selects';
import { ActionsTh } from '../../../components/ui/actions-header';

/** «Ключи API»: the integration keys — list, create (the secret shown once), revoke. docs/integrations.md. */
export function ApiKeysPage() {
  const t = useAdminT();
  const { t: tr } = useTranslation();
  const client = useQueryClient();
  const keys = useQuery({ queryKey: apiKeyKeys.list, queryFn: listApiKeys });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: apiKeyKeys.list });

  return (
    <Stack>
      <Group justify="space-between">
        <PageTitle>{t('apiKeys.title')}</PageTitle>
        <Button onClick={() => setCreating(true)}>{t('apiKeys.create')}</Button>
      </Group>
      <Text c="dimmed">{t('apiKeys.intro')}</Text>
      {keys.error ? (
        <Alert color="red" role="alert">
          {describeApiError(keys.error, tr)}
        </Alert>
      ) : null}
      {keys.data && keys.data.items.length === 0 ? <Text>{t('apiKeys.empty')}</Text> : null}
      {keys.data && keys.data.items.length > 0 ? (
        <Table data-testid="api-keys-table" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('apiKeys.name')}</Table.Th>
              <Table.Th>{t('apiKeys.prefix')}</Table.Th>
              <Table.Th>{t('apiKeys.owner')}</Table.Th>
              <Table.Th>{t('apiKeys.scopes')}</Table.Th>
              <Table.Th>{t('apiKeys.createdAt')}</Table.Th>
              <Table.Th>{t('apiKeys.lastUsedAt')}</Table.Th>
              <Table.Th>{t('apiKeys.state')}</Table.Th>
              <ActionsTh />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.data.items.map((k) => (
              <Table.Tr key={k.id}>
                <Table.Td>{k.name}</Table.Td>
                <Table.Td>
                  <Text ff="monospace" size="sm">{`atk_${k.prefix}_…`}</Text>
                </Table.Td>
                <Table.Td>{k.userLogin}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {k.scopes.map((s) => (
                      <Badge key={s} variant="light">
                        {t(`apiKeys.scope.${s}`)}
                      </Badge>
                    ))}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {k.ooName ?? t('apiKeys.everyOo')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {instant(k.createdAt)}
                  {k.createdByLogin ? (
                    <Text size="xs" c="dimmed">
                      {k.createdByLogin}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{k.lastUsedAt ? instant(k.lastUsedAt) : t('apiKeys.never')}</Table.Td>
                <Table.Td>
                  {k.revokedAt ? (
                    <Badge color="gray">{t('apiKeys.revokedAt', { at: instant(k.revokedAt) })}</Badge>
                  ) : (
                    <Badge color="green">{t('apiKeys.active')}</Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {k.revokedAt ? null : (
                    <Button size="xs" color="red" variant="light" onClick={() => setRevoking(k)}>
                      {t('apiKeys.revoke')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {creating ? (
        <CreateKeyModal
          onDone={(result) => {
            setCreating(false);
            if (result) {
              setCreated(result);
              void refresh();
            }
          }}
        />
      ) : null}
      {created ? <SecretModal created={created} onClose={() => setCreated(null)} /> : null}
      {revoking ? (
        <RevokeModal
          apiKey={revoking}
          onDone={() => {
            setRevoking(null);
            void refresh();
          }}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </Stack>
  );
}

function CreateKeyModal({ onDone }: { onDone: (created?: ApiKeyCreated) => void }) {
  const t = useAdminT();
  const form = useEditForm(() => ({ name: '', scopes: [] as ApiKeyScope[], ooId: null as number | null }));
  const onSubmit = () =>
    form.submit(apiKeyCreateBodySchema.safeParse(form.values), async (body) => {
      onDone(await createApiKey(body));
    });

  return (
    <FormModal
      title={t('apiKeys.createTitle')}
      testId="api-key-form"
      form={form}
      onSubmit={onSubmit}
      onClose={() => onDone()}
      submitLabel={t('common.create')}
      size="md"
    >
      <TextInput label={t('apiKeys.name')} {...form.text('name')} withAsterisk />
      <Checkbox.Group
        label={t('apiKeys.scopes')}
        description={t('apiKeys.scopesHint')}
        value={form.values.scopes}
        onChange={(v) => form.set('scopes', v as ApiKeyScope[])}
        error={form.errorOf('scopes').error}
        withAsterisk
      >
        <Stack gap={6} mt={6}>
          {API_KEY_SCOPES.map((s) => (
            <Checkbox key={s} value={s} label={t(`apiKeys.scope.${s}`)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <RemoteSelect
        kind="oo"
        label={t('apiKeys.oo')}
        description={t('apiKeys.ooHint')}
        value={form.values.ooId}
        onChange={(id) => form.set('ooId', id)}
        error={form.errorOf('ooId').error}
      />
    </FormModal>
  );
}

/** The whole key, this once: copy it now, it is never shown again. */
function SecretModal({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) {
  const t = useAdminT();
  return (
    <Modal opened onClose={onClose} title={t('apiKeys.secretTitle', { name: created.key.name })} size="lg">
      <Stack>
        <Alert color="orange" role="alert">
          {t('apiKeys.secretWarning')}
        </Alert>
        <Text ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="api-key-secret">
          {created.secret}
        </Text>
        <Group justify="flex-end">
          <CopyButton value={created.secret}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>{t('apiKeys.secretDone')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RevokeModal({
  apiKey,
  onDone,
  onCancel,
}: {
  apiKey: ApiKey;
  onDone: () => void;
  onCancel: () => void;
}) {
  const t = useAdminT();
  const { t: tr } = useTranslation();
  const revoke = useMutation({ mutationFn: () => revokeApiKey(apiKey.id), onSuccess: onDone });
  return (
    <Modal opened onClose={onCancel} title={t('apiKeys.revokeTitle')}>
      <Stack>
        <Text>{t('apiKeys.revokeText', { name: apiKey.name })}</Text>
        {revoke.error ? (
          <Alert color="red" role="alert">
            {describeApiError(revoke.error, tr)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <LoadingButton color="red" loading={revoke.isPending} onClick={() => revoke.mutate()}>
            {t('apiKeys.revoke')}
          </LoadingButton>
        </Group>
      </Stack>
    </Modal>
  );
}
