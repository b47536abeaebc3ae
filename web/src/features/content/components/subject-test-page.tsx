/**
 * `/admin/content/tests/:id`: one subject test — its variants, its settings, the check before
 * publication and its experts; Publish (with confirmation, which also warns when its expert-graded
 * tasks have too few experts; a refusal lists the problems) and Export QTI 3.0.
 * `/admin/content/tests/new`: the form of a new draft.
 */
import type { AuthoringSubjectTest } from '@attesta/contract';
import { Alert, Anchor, Badge, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useDownload } from '../../../components/data-table/use-download';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { contentKeys } from '../api/shared';
import { getValidation, publishSubjectTest, qti3Export, subjectTestQuery } from '../api/subject-tests';
import { variantsQuery } from '../api/variants';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { LoadError } from './load-error';
import { StatusBadge } from './subject-tests-page';
import { SubjectTestForm } from './subject-test-form';
import {
  ExpertsWarning,
  ProblemList,
  problemsOfError,
  ValidationPanel,
  type Problem,
} from './validation-panel';
import { ExpertsPanel } from './experts-panel';
import { VariantsPanel } from './variants-panel';

function PublishDialog({
  test,
  onClose,
}: {
  test: AuthoringSubjectTest;
  onClose: (published: boolean) => void;
}) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const variants = useQuery(variantsQuery(test.id));
  const check = useQuery({
    queryKey: contentKeys.validation(test.id),
    queryFn: ({ signal }) => getValidation(test.id, signal),
  });
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const publish = async () => {
    setProblems(null);
    setError(null);
    try {
      const published = await publishSubjectTest(test.id);
      queryClient.setQueryData(contentKeys.subjectTest(test.id), published);
      await queryClient.invalidateQueries({ queryKey: contentKeys.subjectTests });
      onClose(true);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'content_invalid') {
        setProblems(problemsOfError(e.fieldErrors));
        await queryClient.invalidateQueries({ queryKey: contentKeys.validation(test.id) });
        return;
      }
      setError(describeApiError(e, appT));
    }
  };
  return (
    <Modal opened onClose={() => onClose(false)} title={t('publish.title', { name: test.name })} size="lg">
      <Stack>
        <Text size="sm">{t('publish.text')}</Text>
        <ExpertsWarning subjectTestId={test.id} coverage={check.data?.expertCoverage ?? null} />
        {problems && (
          <Alert color="red" role="alert" data-testid="publish-problems">
            <Stack gap="xs">
              <Text size="sm">{t('publish.refused')}</Text>
              <ProblemList problems={problems} variants={variants.data} />
            </Stack>
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert" data-testid="publish-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <LoadingButton variant="default" onClick={() => onClose(false)}>
            {t('common.cancel')}
          </LoadingButton>
          <LoadingButton color="green" onClick={publish} data-testid="publish-confirm">
            {t('publish.confirm')}
          </LoadingButton>
        </Group>
      </Stack>
    </Modal>
  );
}

const TABS = ['variants', 'settings', 'validation', 'experts'] as const;
type Tab = (typeof TABS)[number];

export function SubjectTestPage() {
  const t = useContentT();
  const labels = useLabels();
  const id = Number(useParams().id);
  const [search, setSearch] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(search.get('tab') ?? '')
    ? (search.get('tab') as Tab)
    : 'variants';
  const test = useQuery({ ...subjectTestQuery(id), enabled: Number.isInteger(id) && id > 0 });
  const [publishing, setPublishing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const download = useDownload();

  if (test.error) {
    const missing = test.error instanceof ApiError && test.error.status === 404;
    return (
      <Stack>
        <PageTitle>{t('tests.notFound')}</PageTitle>
        {!missing && <LoadError error={test.error} onRetry={() => void test.refetch()} />}
        <Anchor component={Link} to={`${CONTENT_BASE}/tests`}>
          {t('tests.backToList')}
        </Anchor>
      </Stack>
    );
  }
  const data = test.data;
  if (!data) return <Loader size="sm" />;

  return (
    <Stack gap="md">
      <PageTitle data-testid="test-title">{data.name}</PageTitle>
      <Group gap="xs" wrap="wrap">
        <StatusBadge status={data.status} />
        <Badge variant="outline" color="gray">
          {data.subjectName}
        </Badge>
        <Badge variant="outline" color="gray">
          {labels.examKind(data.kind)}
        </Badge>
        {data.parallels.length > 0 && (
          <Badge variant="outline" color="gray">
            {data.parallels.map(labels.parallel).join(', ')}
          </Badge>
        )}
        {data.sourceId && (
          <Text size="xs" c="dimmed">
            {t('tests.source', { id: data.sourceId })}
          </Text>
        )}
      </Group>
      <Group gap="sm">
        {data.status === 'published' ? (
          <Badge color="green" size="lg" variant="light">
            {t('publish.already')}
          </Badge>
        ) : (
          <LoadingButton color="green" onClick={() => setPublishing(true)} data-testid="publish">
            {t('publish.button')}
          </LoadingButton>
        )}
        <LoadingButton
          variant="default"
          onClick={() => {
            const file = qti3Export(data.id);
            return download(file.path, file.query, file.fileName);
          }}
          data-testid="export-qti"
        >
          {t('exportQti.button')}
        </LoadingButton>
      </Group>
      {notice && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setNotice(null)}
          data-testid="test-notice"
        >
          {notice}
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(v) => setSearch(v && v !== 'variants' ? { tab: v } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="variants" data-testid="tab-variants">
            {t('tests.tabVariants')}
          </Tabs.Tab>
          <Tabs.Tab value="settings" data-testid="tab-settings">
            {t('tests.tabSettings')}
          </Tabs.Tab>
          <Tabs.Tab value="validation" data-testid="tab-validation">
            {t('tests.tabValidation')}
          </Tabs.Tab>
          <Tabs.Tab value="experts" data-testid="tab-experts">
            {t('tests.tabExperts')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="variants" pt="md">
          <VariantsPanel subjectTest={data} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <SubjectTestForm
            key={data.updatedAt ?? data.createdAt}
            test={data}
            onSaved={() => setNotice(t('tests.saved'))}
          />
        </Tabs.Panel>
        <Tabs.Panel value="validation" pt="md">
          <ValidationPanel subjectTestId={data.id} />
        </Tabs.Panel>
        <Tabs.Panel value="experts" pt="md">
          <ExpertsPanel subjectTestId={data.id} />
        </Tabs.Panel>
      </Tabs>
      {publishing && (
        <PublishDialog
          test={data}
          onClose={(published) => {
            setPublishing(false);
            if (published) setNotice(t('publish.done'));
          }}
        />
      )}
    </Stack>
  );
}

export function SubjectTestCreatePage() {
  const t = useContentT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const subjectId = Number(search.get('subjectId'));
  return (
    <Stack gap="md">
      <PageTitle>{t('tests.createTitle')}</PageTitle>
      <SubjectTestForm
        test={null}
        defaultSubjectId={Number.isInteger(subjectId) && subjectId > 0 ? subjectId : null}
        onSaved={(saved) => navigate(`${CONTENT_BASE}/tests/${saved.id}`)}
        onCancel={() => navigate(`${CONTENT_BASE}/tests`)}
      />
    </Stack>
  );
}
