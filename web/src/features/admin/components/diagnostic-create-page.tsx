import {
  createDiagnosticBodySchema,
  DIAGNOSTIC_KINDS,
  type CreateDiagnosticBody,
  type DiagnosticKind,
} from '@attesta/contract';
import { Anchor, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DiagnosticForm, useDiagnosticForm } from '../../../components/diagnostic-form/diagnostic-form';
import { PageTitle } from '../../../components/ui/page-title';
import { adminKeys, createDiagnostic, listSubjectTestOptions } from '../api/admin-api';
import { orgKeys } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { SchoolsMultiSelect } from './org-selects';

/** `/admin/diagnostics/new`: create a diagnostic of any kind, then see it on its own page. */
export function AdminDiagnosticCreatePage() {
  const t = useAdminT();
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const options = useQuery({ queryKey: adminKeys.subjectTestOptions, queryFn: listSubjectTestOptions });
  const form = useDiagnosticForm();
  const [kind, setKind] = useState<DiagnosticKind>('diagnostic');
  const [schools, setSchools] = useState<{ value: string; label: string }[]>([]);
  const mutation = useMutation({
    mutationFn: createDiagnostic,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.queue }),
        queryClient.invalidateQueries({ queryKey: orgKeys.diagnostics }),
      ]),
  });
  const schoolIds = schools.map((s) => Number(s.value));

  return (
    <Stack gap="md">
      <PageTitle>{t('diagnostics.createTitle')}</PageTitle>
      <Anchor component={Link} to="/admin/diagnostics" size="sm">
        {t('diagnostics.backToList')}
      </Anchor>
      <DiagnosticForm
        form={form}
        t={t}
        subjectTests={options.data}
        testId="admin-diagnostic-form"
        beside={
          <Select
            label={t('diagnostics.kind')}
            data={DIAGNOSTIC_KINDS.map((k) => ({ value: k, label: t(`diagnostics.kinds.${k}`) }))}
            value={kind}
            onChange={(v) => v && setKind(v as DiagnosticKind)}
            allowDeselect={false}
          />
        }
        // An admin's diagnostic names its schools (only a coordinator's defaults to their own).
        extraErrors={schoolIds.length ? undefined : { schoolIds: i18n.t('validation.required') }}
        check={(common) =>
          createDiagnosticBodySchema.safeParse({
            ...common,
            kind,
            ...(schoolIds.length ? { schoolIds } : {}),
          })
        }
        send={async (body: CreateDiagnosticBody) => {
          const diagnostic = await mutation.mutateAsync(body);
          await navigate(`/admin/diagnostics/${diagnostic.id}`);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SchoolsMultiSelect
            label={t('diagnostics.schoolIds')}
            description={t('diagnostics.schoolIdsHint')}
            value={schools}
            onChange={(v) => (setSchools(v), form.clearFieldError('schoolIds'))}
            error={form.fieldErrors.schoolIds}
          />
          <TextInput label={t('diagnostics.code')} {...form.textField('code')} />
        </SimpleGrid>
      </DiagnosticForm>
    </Stack>
  );
}
