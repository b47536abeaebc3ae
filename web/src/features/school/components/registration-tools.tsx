import { impersonalCreateBodySchema, type CreatedCode, type StaffDiagnostic } from '@attesta/contract';
import {
  Alert,
  Button,
  Code,
  FileInput,
  Group,
  List,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { allClassesQuery } from '../api/classes';
import { createImpersonal, createPlanningQueue, importXml } from '../api/participant-tests';
import { schoolKeys } from '../api/shared';
import { formatPlainDate } from '../../../lib/format';
import { ApiError, isSessionGone } from '../../../lib/api-client';
import { useApiForm } from '../../../lib/use-api-form';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useCoordinatorT } from '../locales';
import { useNotifyError } from '../../../lib/use-notify-error';
import { describeApiError, describeFieldError } from '../../../lib/form-errors';

function ImpersonalForm({
  diagnostic,
  onCreated,
}: {
  diagnostic: StaffDiagnostic;
  onCreated: (c: CreatedCode[]) => void;
}) {
  const { t } = useCoordinatorT();
  const { attachForm, fieldErrors, formError, isLoading, submit } = useApiForm();
  const classes = useQuery(allClassesQuery('coordinator'));
  const [subjectTestId, setSubjectTestId] = useState(String(diagnostic.subjectTests[0]?.id ?? ''));
  const [testDate, setTestDate] = useState(formatPlainDate(new Date(diagnostic.startsAt)));
  const [count, setCount] = useState<number | string>(10);
  const [classId, setClassId] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = impersonalCreateBodySchema.safeParse({
      diagnosticId: diagnostic.id,
      subjectTestId: Number(subjectTestId),
      testDate,
      count: Number(count),
      ...(classId ? { classId: Number(classId) } : {}),
    });
    void submit(checked, async (body) => onCreated((await createImpersonal(body)).items));
  };
  const err = fieldErrors;
  return (
    <form ref={attachForm} onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {formError && <Alert color="red">{formError}</Alert>}
        <NativeSelect
          label={t('coordinatorPages.tools.subjectTest')}
          value={subjectTestId}
          onChange={(e) => setSubjectTestId(e.currentTarget.value)}
          data={diagnostic.subjectTests.map((s) => ({ value: String(s.id), label: s.name }))}
          error={err.subjectTestId}
        />
        <TextInput
          type="date"
          label={t('coordinatorPages.tools.date')}
          value={testDate}
          onChange={(e) => setTestDate(e.currentTarget.value)}
          error={err.testDate}
        />
        <NumberInput
          label={t('coordinatorPages.tools.count')}
          min={1}
          max={500}
          value={count}
          onChange={setCount}
          error={err.count}
        />
        <NativeSelect
          label={t('coordinatorPages.tools.class')}
          value={classId}
          onChange={(e) => setClassId(e.currentTarget.value)}
          data={[
            { value: '', label: '—' },
            ...(classes.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name })),
          ]}
          error={err.classId}
        />
        <Group justify="flex-end">
          <LoadingButton type="submit" loading={isLoading} data-testid="impersonal-submit">
            {t('coordinatorPages.tools.createCodes')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

function XmlImportForm({ onDone }: { onDone: (text: string) => void }) {
  const { t } = useCoordinatorT();
  const notifyError = useNotifyError();
  const [file, setFile] = useState<File | null>(null);
  const [rowErrors, setRowErrors] = useState<{ path: string; message: string }[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async () => {
    if (!file) return;
    setRowErrors([]);
    setFailure(null);
    try {
      const result = await importXml(await file.text());
      onDone(
        t('coordinatorPages.tools.xmlDone', {
          created: result.created,
          existing: result.existing,
          students: result.studentsCreated,
        }),
      );
    } catch (error) {
      if (error instanceof ApiError && !isSessionGone(error)) {
        setFailure(describeApiError(error, t));
        setRowErrors(error.fieldErrors);
        return;
      }
      notifyError(error);
    }
  };
  return (
    <Stack gap="sm">
      {failure && (
        <Alert color="red" role="alert" data-testid="xml-errors">
          <Text size="sm">{t('coordinatorPages.tools.xmlErrors')}</Text>
          {rowErrors.length === 0 ? (
            <Text size="sm">{failure}</Text>
          ) : (
            <List size="sm" mt="xs">
              {rowErrors.map((e) => (
                <List.Item key={e.path}>{describeFieldError(e, t)}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      <FileInput
        label={t('coordinatorPages.tools.xmlFile')}
        accept=".xml,application/xml,text/xml"
        value={file}
        onChange={setFile}
      />
      <Group justify="flex-end">
        <LoadingButton onClick={run} disabled={!file} data-testid="xml-submit">
          {t('coordinatorPages.tools.xmlImport')}
        </LoadingButton>
      </Group>
    </Stack>
  );
}

/** The coordinator's extra tools on a diagnostic's participants page. */
export function RegistrationTools({ diagnostic }: { diagnostic: StaffDiagnostic }) {
  const { t } = useCoordinatorT();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notifyError = useNotifyError();
  const [open, setOpen] = useState<'impersonal' | 'xml' | 'planning' | null>(null);
  const [codes, setCodes] = useState<CreatedCode[] | null>(null);
  const [planDate, setPlanDate] = useState(formatPlainDate(new Date(diagnostic.startsAt)));
  const refresh = () => queryClient.invalidateQueries({ queryKey: schoolKeys.all('coordinator') });

  const plan = async () => {
    try {
      await createPlanningQueue(planDate, diagnostic.code);
      notifications.show({ color: 'green', message: t('coordinatorPages.tools.planningQueued') });
      setOpen(null);
      void navigate('/coordinator/queue');
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          setCodes(null);
          setOpen('impersonal');
        }}
        data-testid="impersonal-open"
      >
        {t('coordinatorPages.tools.impersonal')}
      </Button>
      <Button variant="default" onClick={() => setOpen('xml')} data-testid="xml-open">
        {t('coordinatorPages.tools.xml')}
      </Button>
      <Button variant="default" onClick={() => setOpen('planning')} data-testid="planning-open">
        {t('coordinatorPages.tools.planning')}
      </Button>
      <Modal
        opened={open === 'impersonal'}
        onClose={() => setOpen(null)}
        title={t('coordinatorPages.tools.impersonal')}
      >
        {codes ? (
          <Stack>
            <Text fw={600}>{t('coordinatorPages.tools.createdCodes')}</Text>
            <Table>
              <Table.Tbody>
                {codes.map((c) => (
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
        ) : (
          open === 'impersonal' && (
            <ImpersonalForm
              diagnostic={diagnostic}
              onCreated={(created) => {
                setCodes(created);
                void refresh();
              }}
            />
          )
        )}
      </Modal>
      <Modal opened={open === 'xml'} onClose={() => setOpen(null)} title={t('coordinatorPages.tools.xml')}>
        {open === 'xml' && (
          <XmlImportForm
            onDone={(message) => {
              notifications.show({ color: 'green', message });
              setOpen(null);
              void refresh();
            }}
          />
        )}
      </Modal>
      <Modal
        opened={open === 'planning'}
        onClose={() => setOpen(null)}
        title={t('coordinatorPages.tools.planningTitle')}
      >
        <Stack>
          <Text size="sm">{t('coordinatorPages.tools.planningHint')}</Text>
          <TextInput
            type="date"
            label={t('coordinatorPages.tools.date')}
            value={planDate}
            onChange={(e) => setPlanDate(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <LoadingButton onClick={plan} data-testid="planning-submit">
              {t('coordinatorPages.tools.planning')}
            </LoadingButton>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
