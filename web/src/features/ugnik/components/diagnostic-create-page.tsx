import { ugnikDiagnosticCreateBodySchema, type UgnikDiagnosticCreateBody } from '@attesta/contract';
import { Anchor, Badge, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DiagnosticForm, useDiagnosticForm } from '../../../components/diagnostic-form/diagnostic-form';
import { PageTitle } from '../../../components/ui/page-title';
import { createDiagnostic, listMainSubjectTests, listSchools, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';

/** `/ugnik/diagnostics/new`: an inspection diagnostic across chosen schools. */
export function UgnikDiagnosticCreatePage() {
  const t = useUgnikT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useDiagnosticForm();
  const [schoolSearch, setSchoolSearch] = useState('');
  const [schools, setSchools] = useState<Map<number, string>>(new Map());

  const subjectTests = useQuery({
    queryKey: [...ugnikKeys.reference, 'main-subject-tests'],
    queryFn: listMainSubjectTests,
  });
  const schoolOptions = useQuery({
    queryKey: [...ugnikKeys.reference, 'schools', schoolSearch.trim()],
    queryFn: () => listSchools(schoolSearch),
  });
  const mutation = useMutation({
    mutationFn: createDiagnostic,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ugnikKeys.diagnostics }),
  });

  const toggleSchool = (id: number, label: string, on: boolean) => {
    setSchools((current) => {
      const next = new Map(current);
      if (on) next.set(id, label);
      else next.delete(id);
      return next;
    });
    form.clearFieldError('schoolIds');
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/ugnik/diagnostics" size="sm">
        ← {t('common.back')}
      </Anchor>
      <PageTitle>{t('diagnostics.createTitle')}</PageTitle>
      <DiagnosticForm
        form={form}
        t={t}
        subjectTests={subjectTests.data?.items}
        testId="ugnik-diagnostic-form"
        beside={<TextInput label={t('diagnostics.codeOptional')} {...form.textField('code')} />}
        check={(common) =>
          ugnikDiagnosticCreateBodySchema.safeParse({ ...common, schoolIds: [...schools.keys()] })
        }
        send={async (body: UgnikDiagnosticCreateBody) => {
          const created = await mutation.mutateAsync(body);
          void navigate(`/ugnik/diagnostics/${created.id}`);
        }}
      >
        <Stack gap={4}>
          <Text fw={500} size="sm">
            {t('diagnostics.schools')} <span aria-hidden>*</span>
          </Text>
          <TextInput
            aria-label={t('diagnostics.schoolSearch')}
            placeholder={t('diagnostics.schoolSearch')}
            value={schoolSearch}
            onChange={(e) => setSchoolSearch(e.currentTarget.value)}
            w={320}
          />
          <Group gap={4} data-testid="selected-schools">
            <Text size="sm">{t('diagnostics.selectedSchools', { count: schools.size })}</Text>
            {[...schools].map(([id, label]) => (
              <Badge key={id} variant="light">
                {label}
              </Badge>
            ))}
          </Group>
          <Stack
            gap={2}
            mah={240}
            style={{ overflowY: 'auto' }}
            role="group"
            aria-label={t('diagnostics.schools')}
          >
            {(schoolOptions.data?.items ?? []).map((s) => (
              <Checkbox
                key={s.id}
                label={`${s.shortName ?? s.name} (${s.ooName})`}
                checked={schools.has(s.id)}
                onChange={(e) => toggleSchool(s.id, s.shortName ?? s.name, e.currentTarget.checked)}
              />
            ))}
          </Stack>
          {form.fieldErrors.schoolIds && (
            <Text c="red" size="sm" role="alert">
              {form.fieldErrors.schoolIds}
            </Text>
          )}
        </Stack>
      </DiagnosticForm>
    </Stack>
  );
}
