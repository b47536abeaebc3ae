/** `POST /api/ParticipantTest/participantTestCreateImpersonal`: N codes without names for one school. */
import { impersonalCreateBodySchema, type AdminDiagnosticDetail, type CreatedCode } from '@attesta/contract';
import { Code, Modal, NumberInput, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { plainDate } from '../../../components/staff-format';
import { createImpersonal } from '../api/participant-tests-api';
import { useAdminT } from '../i18n';
import { useEditForm } from '../../../lib/use-edit-form';
import { FormModal } from '../../../components/ui/form-modal';
import { RemoteSelect } from './org-selects';
import { moscowDay } from './participant-card-modal';

export function ImpersonalCodesModal({
  diagnostic: d,
  onClose,
  onCreated,
}: {
  diagnostic: AdminDiagnosticDetail;
  onClose: () => void;
  onCreated: () => void;
}) {
  const t = useAdminT();
  const { t: tr } = useTranslation();
  const [created, setCreated] = useState<CreatedCode[] | null>(null);
  const from = moscowDay(d.startsAt);
  const till = moscowDay(d.endsAt);
  const form = useEditForm(() => ({
    subjectTestId: d.subjectTests.length === 1 ? String(d.subjectTests[0]!.id) : '',
    testDate: from,
    count: 10 as number | string,
    schoolId: null as number | null,
  }));
  const v = form.values;

  const onSubmit = () =>
    form.submit(
      impersonalCreateBodySchema.safeParse({
        diagnosticId: d.id,
        subjectTestId: v.subjectTestId ? Number(v.subjectTestId) : undefined,
        testDate: v.testDate,
        count: typeof v.count === 'number' ? v.count : undefined,
        ...(v.schoolId !== null ? { schoolId: v.schoolId } : {}),
      }),
      async (body) => {
        const result = await createImpersonal(body);
        setCreated(result.items);
        onCreated();
      },
      {
        extraErrors: {
          ...(v.schoolId === null ? { schoolId: tr('validation.required') } : {}),
          ...(v.testDate && (v.testDate < from || v.testDate > till)
            ? { testDate: t('participants.dateOutside', { from: plainDate(from), till: plainDate(till) }) }
            : {}),
        },
      },
    );

  if (created) {
    return (
      <Modal opened onClose={onClose} title={t('participants.impersonalCreate')} size="lg">
        <Stack data-testid="impersonal-created">
          <Text>{t('participants.created', { count: created.length })}</Text>
          <Table>
            <Table.Tbody>
              {created.map((c) => (
                <Table.Tr key={c.participantTestId}>
                  <Table.Td>
                    <Code>{c.activationCode}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Code>{c.registrationCode}</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Modal>
    );
  }

  return (
    <FormModal
      title={t('participants.impersonalCreate')}
      testId="impersonal-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {d.schools.length > 0 ? (
          <Select
            label={t('participants.school')}
            withAsterisk
            data={d.schools.map((s) => ({ value: String(s.id), label: s.name }))}
            value={v.schoolId === null ? null : String(v.schoolId)}
            onChange={(value) => form.set('schoolId', value ? Number(value) : null)}
            {...form.errorOf('schoolId')}
          />
        ) : (
          <RemoteSelect
            kind="school"
            label={t('participants.school')}
            withAsterisk
            value={v.schoolId}
            onChange={(id) => form.set('schoolId', id)}
            {...form.errorOf('schoolId')}
          />
        )}
        <Select
          label={t('participants.subjectTest')}
          withAsterisk
          data={d.subjectTests.map((s) => ({ value: String(s.id), label: s.name }))}
          value={v.subjectTestId || null}
          onChange={(value) => form.set('subjectTestId', value ?? '')}
          {...form.errorOf('subjectTestId')}
        />
        <TextInput
          type="date"
          label={t('participants.testDate')}
          withAsterisk
          min={from}
          max={till}
          {...form.text('testDate')}
        />
        <NumberInput
          label={t('participants.count')}
          withAsterisk
          min={1}
          max={500}
          allowDecimal={false}
          value={v.count}
          onChange={(value) => form.set('count', value)}
          {...form.errorOf('count')}
        />
      </SimpleGrid>
    </FormModal>
  );
}
